package dev.linkproof.transfer.control;

/**
 * How an agent process is started and says it is ready, for whoever starts one ({@code
 * session.LocalAgent}) and the agent itself ({@code agent.AgentMain}): named here, beside the
 * protocol they also share, so the side that starts an agent does not depend on the agent's code
 * (the agent drives points through the session package, DRIVE, so that would be a cycle).
 */
public final class AgentProcess {
    /** The agent's main class, started by name in a JVM of its own. */
    public static final String MAIN_CLASS = "dev.linkproof.transfer.agent.AgentMain";
    /** The first line the agent prints once it listens: {@code linkproof-agent ready port=… pid=…}. */
    public static final String READY = "linkproof-agent ready";
    /** The environment variable that gives the agent its session token (not the command line, which others can read). */
    public static final String TOKEN_ENV = "LINKPROOF_TOKEN";

    private AgentProcess() {}

    /**
     * A fresh session token, for an agent started without one: 16 random bytes in hex (32 characters,
     * well over the agent's minimum), from a {@link java.security.SecureRandom}.
     */
    public static String newToken() {
        byte[] raw = new byte[16];
        new java.security.SecureRandom().nextBytes(raw);
        return java.util.HexFormat.of().formatHex(raw);
    }
}
