package dev.linkproof.transfer.spi;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/** The transports on the class path, by id. A provider that fails to load is listed with its error. */
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

    public Optional<Transport> find(String id) {
        return Optional.ofNullable(byId.get(id));
    }

    public Transport require(String id) {
        Transport t = byId.get(id);
        if (t == null) {
            throw new IllegalArgumentException("unknown transport '" + id + "' (known: " + String.join(", ", byId.keySet()) + ")");
        }
        return t;
    }

    public Map<String, Transport> all() {
        return Map.copyOf(byId);
    }

    public List<String> loadErrors() {
        return List.copyOf(loadErrors);
    }
}
