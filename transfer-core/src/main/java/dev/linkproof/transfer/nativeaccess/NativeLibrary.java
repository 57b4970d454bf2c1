package dev.linkproof.transfer.nativeaccess;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.util.List;
import java.util.Optional;

/**
 * A vendor library opened for downcalls: finds it under one of several names, and turns a missing
 * symbol into a message that names the library and what to install, not a bare lookup failure.
 */
public final class NativeLibrary {
    private final Linker linker = Linker.nativeLinker();
    private final SymbolLookup lookup;
    private final String name;
    private final String hint;

    private NativeLibrary(SymbolLookup lookup, String name, String hint) {
        this.lookup = lookup;
        this.name = name;
        this.hint = hint;
    }

    /**
     * Opens the first of {@code names} the dynamic loader finds; fails with every name tried and
     * {@code hint} (what provides the library).
     */
    public static NativeLibrary open(List<String> names, String hint) {
        StringBuilder tried = new StringBuilder();
        for (String n : names) {
            try {
                return new NativeLibrary(SymbolLookup.libraryLookup(n, Arena.global()), n, hint);
            } catch (IllegalArgumentException e) {
                tried.append(tried.isEmpty() ? "" : ", ").append(n);
            }
        }
        throw new IllegalStateException(tried + " not found" + (hint.isEmpty() ? "" : " (" + hint + ")"));
    }

    /** The name it was opened under. */
    public String name() {
        return name;
    }

    /** A downcall to {@code symbol}; fails naming the library when it lacks the symbol. */
    public MethodHandle require(String symbol, FunctionDescriptor fd) {
        return optional(symbol, fd).orElseThrow(() -> new IllegalStateException(
                name + " lacks " + symbol + (hint.isEmpty() ? "" : " (" + hint + ")")));
    }

    /** A downcall to {@code symbol} where the library version may lack it. */
    public Optional<MethodHandle> optional(String symbol, FunctionDescriptor fd) {
        return lookup.find(symbol).map(address -> linker.downcallHandle(address, fd));
    }
}
