package dev.linkproof.transfer.ucx;

/**
 * The ucx transport's settings that put a point on a device, as the engine's rails and
 * {@code linkproof-transfer --rails} both set them: one rule, so a rail named on the command line runs
 * where the engine's rail of the same NIC runs.
 */
public final class UcxSettings {
    /** The UCX variable (a {@code UCX_*} setting: it configures the context on both ranks) naming a rail's device. */
    public static final String NET_DEVICES = "UCX_NET_DEVICES";
    /** The port a device named without one is used on. */
    public static final int DEFAULT_PORT = 1;

    private UcxSettings() {}

    /**
     * {@code device} as {@link #NET_DEVICES} names it: an RDMA device with its port, port
     * {@value #DEFAULT_PORT} when it gives none ({@code mlx5_0} is {@code mlx5_0:1}; {@code mlx5_0:2}
     * stays). UCX names its tcp devices (network interfaces) without a port: those are not rails here.
     */
    public static String netDevice(String device) {
        return device.indexOf(':') >= 0 ? device : device + ":" + DEFAULT_PORT;
    }
}
