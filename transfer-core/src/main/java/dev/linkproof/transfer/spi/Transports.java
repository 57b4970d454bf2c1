package dev.linkproof.transfer.spi;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * The transports on the class path, by id. A provider that fails to load is listed with its error.
 *
 * <p>The one place that asks the {@link ServiceLoader}. A run discovers once and hands the registry
 * on (the engine's run setup to its profile, its sessions and its fleet; an agent to its connections
 * and drives): each discovery makes new transport instances, and each instance probes its hardware
 * again (verbs reads sysfs and loads libibverbs, ucx makes a context per memory-type question).
 */
public final class Transports {
    private final Map<String, Transport> byId;
    private final List<String> loadErrors;

    private Transports(Map<String, Transport> byId, List<String> loadErrors) {
        this.byId = byId;
        this.loadErrors = loadErrors;
    }

    public static Transports discover() {
        return discover(Transports.class.getClassLoader());
    }

    public static Transports discover(ClassLoader loader) {
        Map<String, Transport> found = new LinkedHashMap<>();
        List<String> errors = new ArrayList<>();
        var it = ServiceLoader.load(Transport.class, loader).iterator();
        while (true) {
            try {
                if (!it.hasNext()) {
                    break;
                }
                Transport t = it.next();
                found.putIfAbsent(t.id(), t);
            } catch (ServiceConfigurationError | LinkageError e) {
                errors.add(e.toString());
            }
        }
        return new Transports(found, errors);
    }

    /**
     * The provider classes {@code loader} lists, without making any: where they are loaded from, for
     * a child JVM's class path. A provider that cannot be listed is left out; discovery reports it.
     */
    public static List<Class<? extends Transport>> providerTypes(ClassLoader loader) {
        List<Class<? extends Transport>> types = new ArrayList<>();
        try {
            for (var provider :
                    ServiceLoader.load(Transport.class, loader).stream().toList()) {
                try {
                    types.add(provider.type());
                } catch (ServiceConfigurationError | LinkageError e) {
                    // a broken provider is reported by discovery, here and in the agent
                }
            }
        } catch (ServiceConfigurationError e) {
            // the same
        }
        return types;
    }

    public Optional<Transport> find(String id) {
        return Optional.ofNullable(byId.get(id));
    }

    public Transport require(String id) {
        Transport t = byId.get(id);
        if (t == null) {
            throw new IllegalArgumentException(
                    "unknown transport '" + id + "' (known: " + String.join(", ", byId.keySet()) + ")");
        }
        return t;
    }

    /** The ids of the transports found: what a profile's {@code transport:} may name. */
    public java.util.Set<String> ids() {
        return java.util.Set.copyOf(byId.keySet());
    }

    public Map<String, Transport> all() {
        return Map.copyOf(byId);
    }

    public List<String> loadErrors() {
        return List.copyOf(loadErrors);
    }
}
