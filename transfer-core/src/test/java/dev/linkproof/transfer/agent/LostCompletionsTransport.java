package dev.linkproof.transfer.agent;

import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.memory.Buffer;
import dev.linkproof.transfer.spi.TargetContext;
import dev.linkproof.transfer.spi.TargetPoint;
import dev.linkproof.transfer.spi.TransportDecorator;
import dev.linkproof.transfer.tcp.TcpTransport;
import dev.linkproof.transfer.validate.CompletionCheck;
import java.time.Duration;
import java.util.Map;

/**
 * tcp whose target behaves as a verbs SEND target whose receive completions never arrive: on
 * CHECKSUM it waits out the whole deadline the agent gives it (the session's progress deadline)
 * and then reports every expected completion missing, as {@code VerbsTargetPoint} does with a
 * short count. The data itself moves and matches.
 */
public final class LostCompletionsTransport extends TransportDecorator {
    public static final String ID = "tcp-lost-completions";

    public LostCompletionsTransport() {
        super(ID, new TcpTransport());
    }

    @Override
    public TargetPoint serve(TransferSpec spec, Buffer region, TargetContext context) throws TransferException {
        TargetPoint served = delegate.serve(spec, region, context);
        return new TargetPoint() {
            @Override
            public Map<String, String> endpoint() {
                return served.endpoint();
            }

            @Override
            public Map<String, String> accept(Map<String, String> initiatorEndpoint) throws TransferException {
                return served.accept(initiatorEndpoint);
            }

            @Override
            public CompletionCheck completions(long batches, Duration deadline) {
                try {
                    Thread.sleep(deadline);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return new CompletionCheck(batches, batches, null);
            }

            @Override
            public void close() {
                served.close();
            }
        };
    }
}
