package com.llmserve.engine.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.llmserve.engine.gguf.GgufFile;
import com.llmserve.engine.gguf.GgufFormatException;
import com.llmserve.engine.gguf.GgufTensor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The GGUF parser on any bytes: a file opens, or is refused as malformed; nothing else may happen. */
class GgufFuzzTests {

    @FuzzTest(maxDuration = "20s")
    void anyBytesOpenOrAreRefusedAsMalformed(byte[] bytes) throws IOException {
        Path file = Files.createTempFile("fuzz", ".gguf");
        try {
            Files.write(file, bytes);
            try (GgufFile f = GgufFile.open(file)) {
                for (String key : f.metadata().keys()) {
                    f.metadata().find(key).map(Object::toString);
                }
                f.tensors().forEach(GgufTensor::byteSize);
            } catch (GgufFormatException expected) {
                // the documented refusal of a malformed file
            }
        } finally {
            Files.delete(file);
        }
    }
}
