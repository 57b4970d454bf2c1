package dev.linkproof.transfer.agent;

import dev.linkproof.transfer.spi.IoSettings;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A target agent in the test's JVM on a free loopback port, for one test class:
 * {@code @RegisterExtension static final InProcessAgent AGENT = new InProcessAgent(TOKEN);}
 */
final class InProcessAgent implements BeforeAllCallback, AfterAllCallback {
    private final String token;
    private AgentServer server;

    InProcessAgent(String token) {
        this.token = token;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        server = AgentServer.start("127.0.0.1", 0, token, IoSettings.DEFAULT);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        server.close();
    }

    int port() {
        return server.port();
    }

    String host() {
        return server.host();
    }
}
