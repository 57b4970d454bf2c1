package dev.linkproof.transfer.agent;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * The agent's own copy of what it prints ({@code --log}). A local agent's output reaches its log
 * through a pipe its initiator reads; when the initiator dies that pipe goes with it, and the lines
 * that say why the agent stopped would be lost. This file is written by the agent itself, so they
 * are there to read. Bounded: once it would pass {@link #LIMIT} bytes it becomes {@code FILE.1}
 * (replacing an older one) and a new file begins, so it never holds more than twice that, and the
 * last lines are always in {@code FILE}. Created readable by its owner only: an agent that made its
 * token up prints it.
 */
final class AgentLog extends OutputStream {
    /** How large the file grows before it is moved aside. */
    static final long LIMIT = 1L << 20;

    private final Path file;
    private final long limit;
    private OutputStream out;
    private long size;
    private boolean broken;

    private AgentLog(Path file, long limit) throws IOException {
        this.file = file;
        this.limit = limit;
        this.out = open(file);
        this.size = Files.size(file);
    }

    /** {@code pattern} with each {@code %p} replaced by {@code pid}, as the JVM's own log options name files. */
    static Path file(String pattern, long pid) {
        return Path.of(pattern.replace("%p", Long.toString(pid)));
    }

    static AgentLog open(Path file, long limit) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        return new AgentLog(file, limit);
    }

    /** The older part, once the file has passed the limit. */
    static Path older(Path file) {
        return file.resolveSibling(file.getFileName() + ".1");
    }

    private static OutputStream open(Path file) throws IOException {
        try {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (FileAlreadyExistsException | UnsupportedOperationException e) {
            // appended to, as it is
        }
        return Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    /** Unbuffered: each line is in the file when the call returns, however abruptly the agent exits next. */
    @Override
    public synchronized void write(byte[] b, int off, int len) throws IOException {
        if (broken) {
            return;
        }
        try {
            if (size > 0 && size + len > limit) {
                out.close();
                Files.move(file, older(file), StandardCopyOption.REPLACE_EXISTING);
                out = open(file);
                size = 0;
            }
            out.write(b, off, len);
            size += len;
        } catch (IOException e) {
            // A log that cannot be written (disk full, removed directory) must not stop the agent;
            // its output still goes to its standard streams.
            broken = true;
        }
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public synchronized void close() throws IOException {
        out.close();
    }

    /**
     * A stream that writes to this log first, then to {@code original}: a write to a pipe whose
     * reader is gone fails (and {@code original}, a PrintStream, swallows that), and the file must
     * have the line all the same.
     */
    PrintStream tee(PrintStream original) {
        OutputStream both = new OutputStream() {
            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                AgentLog.this.write(b, off, len);
                original.write(b, off, len);
            }

            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void flush() {
                original.flush();
            }
        };
        return new PrintStream(both, true, original.charset());
    }
}
