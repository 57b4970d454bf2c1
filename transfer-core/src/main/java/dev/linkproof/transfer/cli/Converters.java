package dev.linkproof.transfer.cli;

import dev.linkproof.transfer.MemoryPlacement;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.Units;
import java.time.Duration;
import picocli.CommandLine;
import picocli.CommandLine.ITypeConverter;

/** The transfer command's option types: sizes, ops, memory placements, the agent's address, durations. */
final class Converters {
    private Converters() {}

    static final class SizeConverter implements ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            try {
                return Units.parseSize(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }

    static final class OpConverter implements ITypeConverter<Op> {
        @Override
        public Op convert(String value) {
            try {
                return Op.parse(value.trim());
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }

    static final class MemoryConverter implements ITypeConverter<MemoryPlacement> {
        @Override
        public MemoryPlacement convert(String value) {
            try {
                return MemoryPlacement.parse(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }

    /** The agent's address; its default port where none is given, as the agent's own --port. */
    static final class PeerConverter implements ITypeConverter<dev.linkproof.transfer.control.HostPort> {
        @Override
        public dev.linkproof.transfer.control.HostPort convert(String value) {
            try {
                return dev.linkproof.transfer.control.HostPort.parse(
                        value, java.util.OptionalInt.of(dev.linkproof.transfer.control.HostPort.AGENT_PORT), 1);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }

    /** A duration in the grammar the engine's keys take too ({@link Units#parseDuration}): "2s", "1.5s", "500ms", "1m", "PT2S". */
    static final class DurationConverter implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            try {
                return Units.parseDuration(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(
                        "bad duration '" + value + "' (expected e.g. 2s, 1.5s, 500ms, PT3S)");
            }
        }
    }
}
