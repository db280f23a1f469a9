package com.llmserve.engine.gguf;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A memory-mapped GGUF file (v2 or v3). The header is parsed and validated when the file is
 * opened; tensor data is never copied: each {@link GgufTensor} is a slice of the mapping, valid
 * until {@link #close()}.
 */
public final class GgufFile implements AutoCloseable {

    private final Path path;
    private final Arena arena;
    private final MemorySegment mapping;
    private final int version;
    private final GgufMetadata metadata;
    private final Map<String, GgufTensor> tensors;
    private final int alignment;
    private final long dataStart;

    private GgufFile(Path path, Arena arena, MemorySegment mapping, GgufParser.Header header) {
        this.path = path;
        this.arena = arena;
        this.mapping = mapping;
        this.version = header.version();
        this.metadata = header.metadata();
        this.alignment = header.alignment();
        this.dataStart = header.dataStart();
        Map<String, GgufTensor> byName = new LinkedHashMap<>();
        for (GgufParser.TensorInfo t : header.tensors()) {
            long offset = dataStart + t.relativeOffset();
            byName.put(
                    t.name(),
                    new GgufTensor(t.name(), t.type(), t.shape(), offset, mapping.asSlice(offset, t.byteSize())));
        }
        this.tensors = Collections.unmodifiableMap(byName);
    }

    /**
     * Maps and validates a GGUF file.
     *
     * @throws IOException          if the file cannot be read
     * @throws GgufFormatException  if it is not a usable GGUF v2/v3 file
     */
    public static GgufFile open(Path path) throws IOException {
        Arena arena = Arena.ofShared();
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            MemorySegment mapping = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), arena);
            GgufParser.Header header = new GgufParser(path, mapping).parse();
            return new GgufFile(path, arena, mapping, header);
        } catch (IOException | RuntimeException e) {
            arena.close();
            throw e;
        }
    }

    public Path path() {
        return path;
    }

    public int version() {
        return version;
    }

    public GgufMetadata metadata() {
        return metadata;
    }

    public int alignment() {
        return alignment;
    }

    /** Absolute offset of the tensor data section. */
    public long dataStart() {
        return dataStart;
    }

    public long fileSize() {
        return mapping.byteSize();
    }

    /** Tensors in file order. */
    public List<GgufTensor> tensors() {
        return List.copyOf(tensors.values());
    }

    public Optional<GgufTensor> findTensor(String name) {
        return Optional.ofNullable(tensors.get(name));
    }

    public GgufTensor tensor(String name) {
        GgufTensor t = tensors.get(name);
        if (t == null) {
            throw new GgufFormatException(path, "required tensor '" + name + "' is missing");
        }
        return t;
    }

    @Override
    public void close() {
        arena.close();
    }

    @Override
    public String toString() {
        return "GgufFile[" + path + ", v" + version + ", " + tensors.size() + " tensors, "
                + metadata.keys().size() + " keys]";
    }
}
