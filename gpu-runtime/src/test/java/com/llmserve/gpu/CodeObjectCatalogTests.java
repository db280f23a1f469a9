package com.llmserve.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.llmserve.kernels.KernelModuleId;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The kernels jar as the runtime sees it: every module built for every target, each code object
 * intact and holding the symbols the generated enums promise.
 */
class CodeObjectCatalogTests {

    private static final int EM_CUDA = 190;
    private static final int EM_AMDGPU = 224;
    private static final CodeObjectCatalog CATALOG = CodeObjectCatalog.load();

    @ParameterizedTest
    @EnumSource(KernelModuleId.class)
    void everyModuleIsBuiltForEveryTarget(KernelModuleId module) {
        assertThat(CATALOG.targets(module))
                .extracting(CodeObjectTarget::name)
                .containsExactlyInAnyOrder("gfx90a", "gfx942", "gfx1100", "sm_80", "sm_90", "compute_80");
    }

    @ParameterizedTest
    @EnumSource(KernelModuleId.class)
    void theIndexAndTheGeneratedEnumsAgreeOnSymbols(KernelModuleId module) {
        assertThat(CATALOG.symbols(module)).isEqualTo(CodeObjectCatalog.expectedSymbols(module));
    }

    @ParameterizedTest
    @EnumSource(KernelModuleId.class)
    void everyCodeObjectIsTheRightFormatAndNamesEverySymbol(KernelModuleId module) {
        for (CodeObjectCatalog.Entry entry : CATALOG.entries(module)) {
            byte[] image = CATALOG.image(entry); // also verifies the build's sha256
            String text = new String(image, StandardCharsets.ISO_8859_1);
            switch (entry.target().kind()) {
                case HSACO -> assertThat(elfMachine(image)).as(entry.file()).isEqualTo(EM_AMDGPU);
                case CUBIN -> assertThat(elfMachine(image)).as(entry.file()).isEqualTo(EM_CUDA);
                case PTX -> assertThat(text).as(entry.file()).startsWith("//").contains(".target sm_80");
            }
            for (String symbol : entry.symbols()) {
                assertThat(text)
                        .as(entry.file() + " names " + symbol)
                        .contains(
                                entry.target().kind() == CodeObjectTarget.Kind.PTX ? ".entry " + symbol + "(" : symbol);
            }
        }
    }

    @Test
    void aMalformedIndexIsRefusedByLine() {
        assertThatThrownBy(() -> CodeObjectCatalog.parse(List.of("norm\tgfx942\thsaco")))
                .hasMessageContaining("malformed line");
        assertThatThrownBy(() -> CodeObjectCatalog.parse(List.of("nosuch\tgfx942\thsaco\tf\t00\tx")))
                .hasMessageContaining("unknown module nosuch");
    }

    @Test
    void aCodeObjectWhoseBytesChangedIsRefused() {
        CodeObjectCatalog.Entry entry = CATALOG.entries(KernelModuleId.NORM).getFirst();
        var tampered = new CodeObjectCatalog.Entry(
                entry.module(), entry.target(), entry.file(), "0".repeat(64), entry.symbols());
        assertThatThrownBy(() -> CATALOG.image(tampered)).hasMessageContaining("has sha256");
    }

    private static int elfMachine(byte[] image) {
        assertThat(image).startsWith(0x7f, 'E', 'L', 'F');
        return ByteBuffer.wrap(image).order(ByteOrder.LITTLE_ENDIAN).getShort(18) & 0xffff;
    }
}
