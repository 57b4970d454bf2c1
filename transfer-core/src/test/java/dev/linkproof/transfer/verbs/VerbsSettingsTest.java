package dev.linkproof.transfer.verbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.linkproof.transfer.Mode;
import dev.linkproof.transfer.TransferSpec;
import java.util.Map;
import org.junit.jupiter.api.Test;

class VerbsSettingsTest {
    private static VerbsSettings of(Map<String, String> s) {
        return VerbsSettings.of(
                TransferSpec.builder().transport("verbs").settings(s).build());
    }

    @Test
    void defaultsFollowPerftest() {
        VerbsSettings s = of(Map.of());
        assertThat(s.port()).isEqualTo(1);
        assertThat(s.eventMode()).isFalse();
        assertThat(s.txDepth()).isEqualTo(128);
        assertThat(s.inlineBytes()).isZero();
        assertThat(s.merge()).isTrue();
        assertThat(s.gidIndex()).isEmpty();
        VerbsSettings lat = VerbsSettings.of(
                TransferSpec.builder().transport("verbs").mode(Mode.LATENCY).build());
        assertThat(lat.inlineBytes()).isEqualTo(220);
    }

    @Test
    void knobsParse() {
        VerbsSettings s = of(Map.of(
                "verbs.completion",
                "event",
                "verbs.mtu",
                "1024",
                "verbs.gidIndex",
                "1",
                "verbs.signalEvery",
                "4",
                "verbs.postList",
                "8",
                "verbs.inline",
                "max",
                "verbs.chunkBytes",
                "64KiB",
                "verbs.device",
                "rxe0"));
        assertThat(s.eventMode()).isTrue();
        assertThat(VerbsSettings.mtuEnum(s.mtuBytes().getAsInt())).isEqualTo(3);
        assertThat(VerbsSettings.mtuBytes(5)).isEqualTo(4096);
        assertThat(s.gidIndex().getAsInt()).isEqualTo(1);
        assertThat(s.inlineMax()).isTrue();
        assertThat(s.chunkBytes()).isEqualTo(65536);
        assertThat(s.device()).contains("rxe0");
    }

    @Test
    void badValuesNameTheKey() {
        assertThatThrownBy(() -> of(Map.of("verbs.mtu", "1000"))).hasMessageContaining("verbs.mtu=1000");
        assertThatThrownBy(() -> of(Map.of("verbs.completion", "spin"))).hasMessageContaining("poll or event");
        assertThatThrownBy(() -> of(Map.of("verbs.txDepht", "1")))
                .hasMessageContaining("unknown verbs setting 'verbs.txDepht'");
        assertThatThrownBy(() -> of(Map.of("verbs.signalEvery", "0")))
                .hasMessageContaining("verbs.signalEvery=0 out of range");
    }
}
