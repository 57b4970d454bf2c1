package dev.linkproof.reports.prometheus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The push: the group's URL as the Pushgateway's API spells it, and what a refusal says. */
class PushgatewayTest {
    private static Map<String, String> grouping(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    @Test
    void theGroupsUrlEncodesWhatAPathSegmentCannotHold() {
        assertThat(new Pushgateway(URI.create("http://gw:9091"), "linkproof", grouping()).url())
                .isEqualTo(URI.create("http://gw:9091/metrics/job/linkproof"));
        // A prefix path is kept (a gateway behind a proxy), a slash in a value or an empty job is base64url.
        assertThat(new Pushgateway(
                                URI.create("https://proxy/pushgateway/"),
                                "a/b",
                                grouping("instance", "node 1", "cluster", "ü"))
                        .url())
                .hasToString("https://proxy/pushgateway/metrics/job@base64/YS9i/instance/node%201/cluster/%C3%BC");
        assertThatThrownBy(() -> new Pushgateway(URI.create("http://gw"), "j", grouping("__name", "x")))
                .hasMessageContaining("'__name' is not a Prometheus label name");
        assertThat(Pushgateway.urlProblem(URI.create("mailto:x@y"))).isEqualTo("not an http:// or https:// URL");
    }

    @Test
    void aGatewayThatAnswers500IsAResultNamingTheStatusAndItsFirstLine() throws Exception {
        List<String> got = new CopyOnWriteArrayList<>();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", x -> {
            got.add(x.getRequestMethod() + " " + x.getRequestURI() + " "
                    + x.getRequestHeaders().getFirst("Content-Type") + "\n"
                    + new String(x.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            byte[] body = "storage full\nmore".getBytes(StandardCharsets.UTF_8);
            x.sendResponseHeaders(500, body.length);
            x.getResponseBody().write(body);
            x.close();
        });
        server.start();
        try {
            URI gw = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
            Pushgateway.Result r = new Pushgateway(gw, "linkproof", grouping("instance", "n1"))
                    .push(RunMetrics.of(List.of("passed"), Instant.EPOCH));
            assertThat(r.ok()).isFalse();
            assertThat(r.status()).isEqualTo(500);
            assertThat(r.describe()).isEqualTo("HTTP 500 (storage full)");
            assertThat(r.url()).isEqualTo(URI.create(gw + "/metrics/job/linkproof/instance/n1"));
            assertThat(got)
                    .singleElement()
                    .asString()
                    .startsWith("PUT /metrics/job/linkproof/instance/n1 text/plain; version=0.0.4; charset=utf-8\n")
                    .contains("# TYPE " + RunMetrics.POINTS + " gauge");
        } finally {
            server.stop(0);
        }
    }

    @Test
    void aGatewayThatIsNotThereIsAResultNotAnException() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        Pushgateway.Result r = new Pushgateway(URI.create("http://127.0.0.1:" + port), "linkproof", grouping())
                .push(RunMetrics.of(List.of(), Instant.EPOCH));
        assertThat(r.ok()).isFalse();
        assertThat(r.status()).isZero();
        assertThat(r.describe()).startsWith("no answer: ");
    }
}
