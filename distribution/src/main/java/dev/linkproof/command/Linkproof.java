package dev.linkproof.command;

import dev.linkproof.profiles.ProbeCommand;
import dev.linkproof.transfer.agent.AgentMain;
import dev.linkproof.transfer.cli.TransferCli;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;

/**
 * The {@code linkproof} command of the release bundle: one entry point for what a cluster node
 * runs. {@code run} is the conformance suite through the JUnit Platform launcher (the Maven run's
 * outputs, without Maven); {@code agent}, {@code probe} and {@code transfer} are the existing
 * commands under one name. {@code check} is answered by {@code bin/linkproof} itself (a shell
 * script, since it must work where the runtime is what is broken).
 */
@Command(
        name = "linkproof",
        mixinStandardHelpOptions = true,
        versionProvider = Linkproof.Version.class,
        description = "Correctness and performance conformance of data transfers: RDMA verbs, UCX, GPU memory, TCP.",
        footer = {
            "",
            "Also: linkproof check [--gpu] [--install]  (what this machine lacks to run the transports)",
            "Each command has its own --help."
        })
public final class Linkproof implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** The command line with every subcommand, for main and for tests. */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Linkproof());
        cl.addSubcommand("run", new RunCommand());
        cl.addSubcommand("agent", named("agent", new CommandLine(new AgentMain())));
        cl.addSubcommand("probe", named("probe", new CommandLine(new ProbeCommand())));
        cl.addSubcommand("transfer", named("transfer", TransferCli.commandLine()));
        cl.addSubcommand("version", new VersionCommand());
        return cl;
    }

    /** The existing commands keep their own names (linkproof-agent, ...) for their own mains; here they are subcommands. */
    private static CommandLine named(String name, CommandLine cl) {
        cl.getCommandSpec().name(name);
        return cl;
    }

    public static void main(String[] args) {
        int rc = commandLine().execute(args);
        // The agent ends on its own when it is told to stop (AgentMain.main's contract); everything
        // else ends here, whatever threads a run left behind.
        if (args.length > 0 && args[0].equals("agent") && rc == 0) {
            return;
        }
        System.exit(rc);
    }

    /** The bundle's version, from the jar's filtered version.properties. */
    static String version() {
        try (InputStream in = Linkproof.class.getResourceAsStream("version.properties")) {
            if (in == null) {
                return "unknown";
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version", "unknown");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static final class Version implements IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {
                "linkproof " + version() + " (Java " + Runtime.version() + ", " + System.getProperty("java.home") + ")"
            };
        }
    }

    @Command(name = "version", description = "Prints the version and the Java runtime it runs on.")
    static final class VersionCommand implements Runnable {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public void run() {
            spec.commandLine().getOut().println(new Version().getVersion()[0]);
        }
    }
}
