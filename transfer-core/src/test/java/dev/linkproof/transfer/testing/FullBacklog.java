package dev.linkproof.transfer.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;

/**
 * A loopback listener whose accept queue is full: a further connection attempt gets no answer (its
 * SYN is dropped), as with an unroutable host, so a connect waits out its own deadline.
 */
public final class FullBacklog implements AutoCloseable {
    private final ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
    private final List<SocketChannel> queued = new ArrayList<>();

    public FullBacklog() throws IOException, InterruptedException {
        try {
            for (int i = 0; i < 8; i++) {
                SocketChannel c = SocketChannel.open();
                queued.add(c);
                c.configureBlocking(false);
                c.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), listener.getLocalPort()));
            }
            Thread.sleep(300);
        } catch (IOException | InterruptedException e) {
            close();
            throw e;
        }
    }

    public int port() {
        return listener.getLocalPort();
    }

    @Override
    public void close() throws IOException {
        for (SocketChannel c : queued) {
            c.close();
        }
        listener.close();
    }
}
