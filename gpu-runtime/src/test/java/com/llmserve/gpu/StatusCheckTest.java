package com.llmserve.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.assertThatNoException;

import com.llmserve.gpu.spi.StatusCheck;
import org.junit.jupiter.api.Test;

class StatusCheckTest {

  private static final StatusCheck CHECK = new StatusCheck("hip", new StatusCheck.Decoder() {
    @Override
    public String name(int code) {
      return code == 2 ? "hipErrorOutOfMemory" : null;
    }

    @Override
    public String message(int code) {
      if (code == 3) throw new GpuUnavailableException("decoder symbol missing");
      return "out of memory";
    }

    @Override
    public boolean isOutOfMemory(int code) {
      return code == 2;
    }
  });

  @Test
  void successPassesSilently() {
    assertThatNoException().isThrownBy(() -> CHECK.check(0, "hipMalloc"));
  }

  @Test
  void anErrorCarriesCallCodeNameAndVendorMessage() {
    assertThatThrownBy(() -> CHECK.check(2, "hipMalloc"))
        .isInstanceOfSatisfying(GpuCallException.class, e -> {
          assertThat(e.library()).isEqualTo("hip");
          assertThat(e.call()).isEqualTo("hipMalloc");
          assertThat(e.code()).isEqualTo(2);
          assertThat(e.codeName()).isEqualTo("hipErrorOutOfMemory");
          assertThat(e.vendorMessage()).isEqualTo("out of memory");
          assertThat(e.isOutOfMemory()).isTrue();
          assertThat(e).hasMessage("hipMalloc failed: hipErrorOutOfMemory (2): out of memory");
        });
  }

  @Test
  void aFailingDecoderDoesNotHideTheError() {
    assertThatThrownBy(() -> CHECK.check(3, "hipFree"))
        .isInstanceOf(GpuCallException.class)
        .hasMessage("hipFree failed: status 3 (3): no message");
  }
}
