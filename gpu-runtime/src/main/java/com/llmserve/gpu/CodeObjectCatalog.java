package com.llmserve.gpu;

import com.llmserve.kernels.Kernel;
import com.llmserve.kernels.KernelModuleId;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The code objects in the kernels jar, read from its {@code code-objects.tsv}: which targets each
 * module was built for, and the symbols each holds. Images are read on demand and checked against
 * the build's SHA-256, so a truncated or swapped resource fails by name instead of in the driver.
 */
public final class CodeObjectCatalog {

    static final String RESOURCE_DIR = "/com/llmserve/kernels/";
    static final String INDEX = RESOURCE_DIR + "code-objects.tsv";

    /** One built code object. */
    public record Entry(
            KernelModuleId module, CodeObjectTarget target, String file, String sha256, Set<String> symbols) {}

    private final Map<KernelModuleId, List<Entry>> entries;

    private CodeObjectCatalog(Map<KernelModuleId, List<Entry>> entries) {
        this.entries = entries;
    }

    /** Reads the index from the kernels jar on the class path. */
    public static CodeObjectCatalog load() {
        try (InputStream in = CodeObjectCatalog.class.getResourceAsStream(INDEX)) {
            if (in == null)
                throw new IllegalStateException(INDEX + " not on the class path: is the kernels jar missing?");
            return parse(new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))
                    .lines()
                    .toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static CodeObjectCatalog parse(List<String> lines) {
        Map<KernelModuleId, List<Entry>> byModule = new EnumMap<>(KernelModuleId.class);
        Map<String, KernelModuleId> byName = new java.util.HashMap<>();
        for (KernelModuleId id : KernelModuleId.values()) byName.put(id.moduleName(), id);
        for (String line : lines) {
            if (line.isBlank() || line.startsWith("#")) continue;
            String[] f = line.split("\t");
            if (f.length != 6) throw new IllegalStateException("malformed line in " + INDEX + ": " + line);
            KernelModuleId module = byName.get(f[0]);
            if (module == null) throw new IllegalStateException(INDEX + " names unknown module " + f[0]);
            CodeObjectTarget target = new CodeObjectTarget(CodeObjectTarget.Kind.ofExtension(f[2]), f[1]);
            byModule.computeIfAbsent(module, m -> new ArrayList<>())
                    .add(new Entry(module, target, f[3], f[4], Set.of(f[5].split(","))));
        }
        for (KernelModuleId id : KernelModuleId.values()) {
            if (!byModule.containsKey(id))
                throw new IllegalStateException(INDEX + " has no code object for module " + id);
        }
        return new CodeObjectCatalog(byModule);
    }

    public List<Entry> entries(KernelModuleId module) {
        return entries.get(module);
    }

    public List<CodeObjectTarget> targets(KernelModuleId module) {
        return entries.get(module).stream().map(Entry::target).toList();
    }

    /** The symbols the build guarantees in every code object of the module. */
    public Set<String> symbols(KernelModuleId module) {
        return entries.get(module).getFirst().symbols();
    }

    /** The kernels the Java enum says a module has; equal to {@link #symbols} when jar and classes match. */
    static Set<String> expectedSymbols(KernelModuleId module) {
        return java.util.Arrays.stream(Kernel.values())
                .filter(k -> k.module() == module)
                .map(Kernel::symbol)
                .collect(Collectors.toSet());
    }

    /** The bytes of one code object, verified against the build's checksum. */
    public byte[] image(Entry entry) {
        try (InputStream in = CodeObjectCatalog.class.getResourceAsStream(RESOURCE_DIR + entry.file())) {
            if (in == null)
                throw new IllegalStateException("code object " + entry.file() + " listed but not in the jar");
            byte[] bytes = in.readAllBytes();
            String actual = HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
            if (!actual.equals(entry.sha256())) {
                throw new IllegalStateException(
                        "code object " + entry.file() + " has sha256 " + actual + ", index says " + entry.sha256());
            }
            return bytes;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
