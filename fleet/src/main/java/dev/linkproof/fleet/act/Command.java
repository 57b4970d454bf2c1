package dev.linkproof.fleet.act;

import dev.linkproof.fleet.blame.VerdictKind;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * One command of acting: its exact argv (run without a shell, so nothing in it is interpreted), the
 * node it acts on and the verdict's kind it acts for ({@code null} for a command that serves no
 * verdict: a query of the scheduler, or the undo of an earlier run's mark).
 *
 * @param edit what the command does through the Kubernetes API ({@link KubernetesApi} runs it; the
 *             argv is then kubectl's line for the same, for the dry run and the report), or
 *             {@code null} for a program {@link CommandRunner} runs (Slurm's)
 */
public record Command(List<String> argv, String node, VerdictKind kind, NodeEdit edit) {
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_./=:,@+-]+");
    private static final Pattern KEY = Pattern.compile("[A-Za-z0-9_.-]+");

    public Command {
        argv = List.copyOf(argv);
        if (argv.isEmpty()) {
            throw new IllegalArgumentException("a command needs a program");
        }
    }

    /** A program to run. */
    public Command(List<String> argv, String node, VerdictKind kind) {
        this(argv, node, kind, null);
    }

    /** An edit of {@code node} through the Kubernetes API, shown as kubectl's line. */
    public static Command kubernetes(NodeEdit edit, String node, VerdictKind kind) {
        return new Command(edit.kubectl(node), node, kind, edit);
    }

    /**
     * The command as an operator would type it: plain words as they are, {@code key=value} with a
     * value that needs quoting as {@code key="value"} (the form Slurm's documentation shows, safe
     * because a reason holds no {@code " $ ` \}), anything else in single quotes.
     */
    public String shellLine() {
        return argv.stream().map(Command::quote).collect(Collectors.joining(" "));
    }

    private static String quote(String word) {
        if (PLAIN.matcher(word).matches()) {
            return word;
        }
        int eq = word.indexOf('=');
        if (eq > 0
                && KEY.matcher(word.substring(0, eq)).matches()
                && word.chars().noneMatch(c -> "\"$`\\!".indexOf(c) >= 0 || c < 0x20)) {
            return word.substring(0, eq + 1) + '"' + word.substring(eq + 1) + '"';
        }
        return "'" + word.replace("'", "'\\''") + "'";
    }
}
