package dev.linkproof.transfer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class UnitsTest {

    @ParameterizedTest(name = "\"{0}\" = {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "0|0",
                "1|1",
                "4096|4096",
                "1000003|1000003",
                "7B|7",
                "' 7 B '|7",
                "4KiB|4096",
                "4 KiB|4096",
                "4kib|4096",
                "4K|4096",
                "4k|4096",
                "4KB|4096",
                "4kb|4096",
                "1MiB|1048576",
                "1 MiB|1048576",
                "1M|1048576",
                "8MB|8388608",
                "2GiB|2147483648",
                "1G|1073741824",
                "3gb|3221225472",
                "8589934591G|9223372035781033984",
            })
    void parsesBinarySizes(String text, long expected) {
        assertThat(Units.parseSize(text)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "\"{0}\" is refused")
    @ValueSource(strings = {"", " ", "abc", "4QiB", "-1", "4.5KiB", "4 KiB B", "KiB", "0x10", "4 TiB", "1e3"})
    void refusesMalformedSizesNamingTheText(String text) {
        assertThatThrownBy(() -> Units.parseSize(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("bad size '" + text + "'")
                .hasMessageContaining("4KiB");
    }

    @ParameterizedTest(name = "\"{0}\" is too large")
    @ValueSource(
            strings = {
                "99999999999999999999",
                "9223372036854775808",
                "8589934592G",
                "8796093022208M",
                "9007199254740992K"
            })
    void refusesSizesThatOverflowALong(String text) {
        assertThatThrownBy(() -> Units.parseSize(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("size '" + text + "' is too large");
    }

    @Test
    void largestLongParses() {
        assertThat(Units.parseSize("9223372036854775807")).isEqualTo(Long.MAX_VALUE);
    }

    @ParameterizedTest(name = "{0} = \"{1}\"")
    @CsvSource(
            delimiter = '|',
            value = {
                "0|0 B",
                "1|1 B",
                "1023|1023 B",
                "1024|1 KiB",
                "1536|1536 B",
                "4096|4 KiB",
                "4097|4097 B",
                "1048576|1 MiB",
                "1049600|1025 KiB",
                "3145728|3 MiB",
                "1073741824|1 GiB",
                "5368709120|5 GiB",
                "1074790400|1025 MiB",
            })
    void formatsWithTheLargestWholeBinaryUnit(long bytes, String expected) {
        assertThat(Units.formatSize(bytes)).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 3, 4096, 4097, 65536, 1000003, 1L << 20, 3L << 30, 1025L << 20})
    void formatAndParseRoundTrip(long bytes) {
        assertThat(Units.parseSize(Units.formatSize(bytes))).isEqualTo(bytes);
    }

    @Test
    void formatsBandwidthInDecimalGigabytes() {
        assertThat(Units.formatGBps(47.93)).isEqualTo("47.9 GB/s");
        assertThat(Units.formatGBps(10.0)).isEqualTo("10.0 GB/s");
        assertThat(Units.formatGBps(3.214)).isEqualTo("3.21 GB/s");
        assertThat(Units.formatGBps(0.1)).isEqualTo("0.10 GB/s");
        assertThat(Units.formatGBps(0.012345)).isEqualTo("0.0123 GB/s");
        assertThat(Units.formatGBps(0)).isEqualTo("0.00 MB/s");
        assertThat(Units.formatGBps(0.0000069)).isEqualTo("0.00690 MB/s");
        assertThat(Units.formatGBps(0.00512)).isEqualTo("5.12 MB/s");
    }

    @Test
    void formatsMicroseconds() {
        assertThat(Units.formatMicros(123.4)).isEqualTo("123 µs");
        assertThat(Units.formatMicros(20.44)).isEqualTo("20.4 µs");
        assertThat(Units.formatMicros(1.234)).isEqualTo("1.23 µs");
        assertThat(Units.formatMicros(0.064)).isEqualTo("64 ns");
        assertThat(Units.formatMicros(0.001)).isEqualTo("1 ns");
    }
}
