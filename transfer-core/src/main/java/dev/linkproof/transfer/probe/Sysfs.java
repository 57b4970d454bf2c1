package dev.linkproof.transfer.probe;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * Reads attribute files below a root that stands for {@code /}. Every read is forgiving: sysfs
 * attributes that exist but refuse to be read (an interface's {@code speed} while it is down answers
 * EINVAL) and files that do not exist both read as empty, so one odd device never stops a probe.
 */
final class Sysfs {
    private final Path root;

    Sysfs(Path root) {
        this.root = root;
    }

    Path root() {
        return root;
    }

    /** An absolute path like {@code /sys/class/net}, resolved below the root. */
    Path at(String absolute) {
        String rel = absolute.startsWith("/") ? absolute.substring(1) : absolute;
        return rel.isEmpty() ? root : root.resolve(rel);
    }

    /** The file's content with surrounding whitespace removed, or empty. */
    Optional<String> read(Path file) {
        try {
            if (!Files.isRegularFile(file)) {
                return Optional.empty();
            }
            // ISO-8859-1 never rejects a byte: sysfs files are ASCII, /proc/cpuinfo nearly so.
            return Optional.of(new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1).strip());
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    Optional<String> read(Path dir, String name) {
        return read(dir.resolve(name));
    }

    String readOr(Path dir, String name, String fallback) {
        return read(dir, name).filter(s -> !s.isEmpty()).orElse(fallback);
    }

    OptionalLong readLong(Path dir, String name) {
        Optional<String> s = read(dir, name);
        if (s.isEmpty()) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Long.parseLong(s.get()));
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    /** A hex attribute such as PCI {@code vendor} ({@code 0x15b3}). */
    OptionalInt readHex(Path dir, String name) {
        Optional<String> s = read(dir, name);
        if (s.isEmpty()) {
            return OptionalInt.empty();
        }
        String t = s.get().toLowerCase(java.util.Locale.ROOT);
        if (t.startsWith("0x")) {
            t = t.substring(2);
        }
        try {
            return OptionalInt.of(Integer.parseUnsignedInt(t, 16));
        } catch (NumberFormatException e) {
            return OptionalInt.empty();
        }
    }

    /** Entries of a directory sorted by name, or none. Symbolic links to directories count. */
    List<Path> list(Path dir) {
        List<Path> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path p : ds) {
                out.add(p);
            }
        } catch (IOException | RuntimeException e) {
            return out;
        }
        out.sort(Comparator.comparing(p -> p.getFileName().toString(), Sysfs::naturalCompare));
        return out;
    }

    /** The last element of a symbolic link's target ({@code device/driver -> .../mlx5_core}), when it is one. */
    Optional<String> linkName(Path link) {
        try {
            if (Files.isSymbolicLink(link)) {
                Path target = Files.readSymbolicLink(link);
                Path name = target.getFileName();
                return name == null ? Optional.empty() : Optional.of(name.toString());
            }
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }

    boolean isDirectory(Path p) {
        return Files.isDirectory(p);
    }

    boolean exists(Path p) {
        return Files.exists(p, LinkOption.NOFOLLOW_LINKS) || Files.exists(p);
    }

    /** Orders {@code gpu2} before {@code gpu10} and {@code 9} before {@code 10}. */
    static int naturalCompare(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            char ca = a.charAt(i);
            char cb = b.charAt(j);
            if (Character.isDigit(ca) && Character.isDigit(cb)) {
                int si = i;
                int sj = j;
                while (i < a.length() && Character.isDigit(a.charAt(i))) {
                    i++;
                }
                while (j < b.length() && Character.isDigit(b.charAt(j))) {
                    j++;
                }
                String na = a.substring(si, i).replaceFirst("^0+(?=.)", "");
                String nb = b.substring(sj, j).replaceFirst("^0+(?=.)", "");
                int c = na.length() != nb.length() ? Integer.compare(na.length(), nb.length()) : na.compareTo(nb);
                if (c != 0) {
                    return c;
                }
            } else {
                if (ca != cb) {
                    return Character.compare(ca, cb);
                }
                i++;
                j++;
            }
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }
}
