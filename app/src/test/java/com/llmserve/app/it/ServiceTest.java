package com.llmserve.app.it;

import com.llmserve.app.TestModels;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * The running service on a random port, serving {@link TestModels#TEXT} and
 * {@link TestModels#EMBEDDING} from {@link TestModels#DIR}. Every class with this annotation shares
 * one server (Spring caches the context by its configuration).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(ServiceTest.ModelsFolder.class)
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "llmserve.models-dir=" + TestModels.DIR,
            "llmserve.engine.kv-blocks=256",
            "llmserve.api.max-request-size=256KB",
            "llmserve.api.max-embedding-tokens=8192",
            "llmserve.api.keep-alive-interval=10s",
            "logging.level.com.llmserve=INFO"
        })
public @interface ServiceTest {

    /** Links the test models into their folder before the context starts. */
    final class ModelsFolder implements BeforeAllCallback {
        @Override
        public void beforeAll(ExtensionContext context) {
            TestModels.folder();
        }
    }
}
