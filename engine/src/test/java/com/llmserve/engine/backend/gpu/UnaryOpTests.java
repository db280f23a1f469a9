package com.llmserve.engine.backend.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import com.llmserve.engine.backend.Unary;
import com.llmserve.kernels.KernelParam;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class UnaryOpTests {

    @ParameterizedTest
    @EnumSource(Unary.class)
    void everyUnaryFunctionHasAKernelOfItsNameTakingTheValuesAndTheirCount(Unary f) {
        assertThat(UnaryOp.kernel(f).params())
                .extracting(KernelParam::kind)
                .containsExactly(KernelParam.Kind.POINTER, KernelParam.Kind.I32);
    }
}
