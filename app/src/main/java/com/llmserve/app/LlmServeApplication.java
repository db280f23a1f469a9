package com.llmserve.app;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** The OpenAI-compatible service. Run it with the flags of {@link #REQUIRED_FLAGS}, as {@code scripts/run.sh} does. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class LlmServeApplication {

    /** What every JVM of this project needs: the Vector API module and native access for FFM. */
    static final String REQUIRED_FLAGS = "--add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED";

    public static void main(String[] args) {
        // A manifest can enable native access but cannot add a module: without the flag the CPU
        // backend would fail on its first matmul, long after startup, so refuse to start instead.
        if (ModuleLayer.boot().findModule("jdk.incubator.vector").isEmpty()) {
            System.err.println("llmserve needs the Vector API: start the JVM with " + REQUIRED_FLAGS
                    + " (for example: java " + REQUIRED_FLAGS + " -jar app.jar), or use scripts/run.sh");
            System.exit(2);
        }
        SpringApplication.run(LlmServeApplication.class, args);
    }
}
