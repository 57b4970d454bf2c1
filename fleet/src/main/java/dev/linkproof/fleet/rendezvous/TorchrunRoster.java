package dev.linkproof.fleet.rendezvous;

import dev.linkproof.fleet.FleetConfigurationException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.IntStream;

/**
 * The expected nodes of a torchrun (or any {@code torch.distributed}-style) launch: {@code WORLD_SIZE}
 * processes named {@code rank0} … by {@code RANK}, the coordinator at {@code MASTER_ADDR}:
 * {@code MASTER_PORT}. The environment names no hosts, so ranks stand for nodes; a fleet wants one
 * agent per node, so a {@code LOCAL_WORLD_SIZE} above 1 or a {@code LOCAL_RANK} other than 0 is
 * an error (torchrun {@code --nproc-per-node=1}).
 */
final class TorchrunRoster {
    private TorchrunRoster() {}

    static Roster read(LauncherVariables env) {
        int size = env.requireCount("WORLD_SIZE", "the number of processes");
        int rank = env.requireIndex("RANK", "this process's rank");
        LauncherVariables.checkBelow("RANK", rank, "WORLD_SIZE", size);
        OneAgentPerNode.check(env, "LOCAL_WORLD_SIZE", "LOCAL_RANK", "torchrun --nproc-per-node=1");
        String host = env.require("MASTER_ADDR", "the rank-0 host's address");
        String portText = env.require("MASTER_PORT", "the rank-0 host's port");
        int port = LauncherVariables.number("MASTER_PORT", portText, 1, "a port from 1 to 65535");
        if (port > 65535) {
            throw new FleetConfigurationException("MASTER_PORT=" + portText + " is not a port from 1 to 65535");
        }
        return new Roster(
                Launcher.TORCHRUN,
                "torchrun, WORLD_SIZE=" + size,
                ranks(size),
                Optional.of("rank" + rank),
                OptionalInt.of(rank),
                Optional.of(InetSocketAddress.createUnresolved(host, port)),
                Optional.empty());
    }

    static List<String> ranks(int size) {
        return IntStream.range(0, size).mapToObj(i -> "rank" + i).toList();
    }
}
