package dev.linkproof.transfer.nativeaccess;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
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
     * Opens the first of {@code names} the dynamic loader can open; fails with every name tried, the
     * loader's own error for each ({@link #lookup}: absent, not a library, wrong ELF class, a
     * dependency missing — a file that is there but cannot be loaded is not "not found"; " / " between
     * the names' errors, as a caller may join reasons with "; ") and {@code hint} (what provides the library).
     */
    public static NativeLibrary open(List<String> names, String hint) {
        List<String> tried = new ArrayList<>();
        List<String> why = new ArrayList<>();
        for (String n : names) {
            try {
                return new NativeLibrary(lookup(n, Arena.global()), n, hint);
            } catch (IllegalArgumentException e) {
                tried.add(n);
                why.add(e.getMessage());
            }
        }
        throw new IllegalStateException(String.join(", ", tried) + " cannot be loaded: " + String.join(" / ", why)
                + (hint.isEmpty() ? "" : " (" + hint + ")"));
    }

    /**
     * {@link SymbolLookup#libraryLookup(String, Arena)}, failing with the dynamic loader's own error
     * ({@code dlerror()}: "libucp.so.0: cannot open shared object file: No such file or directory",
     * "/opt/x/libucp.so.0: wrong ELF class: ELFCLASS32", "libucs.so.0: cannot open shared object
     * file ..." for a missing dependency) as the {@link IllegalArgumentException}'s message, where the
     * JDK says only "Cannot open library: <name>".
     */
    public static SymbolLookup lookup(String name, Arena arena) {
        try {
            return SymbolLookup.libraryLookup(name, arena);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(loaderError(name).orElse(e.getMessage()), e);
        }
    }

    private static final int RTLD_LAZY = 0x1;

    /**
     * Why the dynamic loader cannot open {@code name}: it is asked again ({@code dlopen}, then
     * {@code dlerror} on the same thread, as the JDK keeps neither), and its own words are returned.
     * Empty when it opens after all, or the loader cannot be asked.
     */
    public static Optional<String> loaderError(String name) {
        try (Arena a = Arena.ofConfined()) {
            Linker linker = Linker.nativeLinker();
            SymbolLookup libc = linker.defaultLookup();
            var dlopen = linker.downcallHandle(
                    libc.find("dlopen").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
            var dlerror = linker.downcallHandle(
                    libc.find("dlerror").orElseThrow(), FunctionDescriptor.of(ValueLayout.ADDRESS));
            var dlclose = linker.downcallHandle(
                    libc.find("dlclose").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS));
            MemorySegment ignoredEarlier = (MemorySegment) dlerror.invokeExact(); // clears an earlier error
            MemorySegment handle = (MemorySegment) dlopen.invokeExact(a.allocateFrom(name), RTLD_LAZY);
            if (!handle.equals(MemorySegment.NULL)) {
                int ignored = (int) dlclose.invokeExact(handle);
                return Optional.empty();
            }
            MemorySegment error = (MemorySegment) dlerror.invokeExact();
            return error.equals(MemorySegment.NULL)
                    ? Optional.empty()
                    : Optional.of(error.reinterpret(4096).getString(0));
        } catch (Throwable t) {
            return Optional.empty();
        }
    }

    /** The name it was opened under. */
    public String name() {
        return name;
    }

    /** A downcall to {@code symbol}; fails naming the library when it lacks the symbol. */
    public MethodHandle require(String symbol, FunctionDescriptor fd) {
        return optional(symbol, fd)
                .orElseThrow(() -> new IllegalStateException(
                        name + " lacks " + symbol + (hint.isEmpty() ? "" : " (" + hint + ")")));
    }

    /** A downcall to {@code symbol} where the library version may lack it. */
    public Optional<MethodHandle> optional(String symbol, FunctionDescriptor fd) {
        return lookup.find(symbol).map(address -> linker.downcallHandle(address, fd));
    }
}
