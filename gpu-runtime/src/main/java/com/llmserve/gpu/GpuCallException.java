package com.llmserve.gpu;

/**
 * A vendor call returned an error status.
 *
 * @see #library() the library that answered ({@code hip}, {@code cuda}, {@code cublas}, ...)
 */
public final class GpuCallException extends GpuException {

  private final String library;
  private final String call;
  private final int code;
  private final String codeName;
  private final String vendorMessage;
  private final boolean outOfMemory;

  public GpuCallException(
      String library, String call, int code, String codeName, String vendorMessage, boolean outOfMemory) {
    super(call + " failed: " + codeName + " (" + code + "): " + vendorMessage);
    this.library = library;
    this.call = call;
    this.code = code;
    this.codeName = codeName;
    this.vendorMessage = vendorMessage;
    this.outOfMemory = outOfMemory;
  }

  /** The library whose status this is: {@code hip}, {@code rocblas}, {@code cuda}, {@code nvml}, ... */
  public String library() {
    return library;
  }

  /** The exported symbol that failed, e.g. {@code cuMemAlloc_v2}. */
  public String call() {
    return call;
  }

  /** The vendor's numeric status. */
  public int code() {
    return code;
  }

  /** The vendor's name for the status, e.g. {@code hipErrorNoDevice}. */
  public String codeName() {
    return codeName;
  }

  /** The vendor's own description of the status. */
  public String vendorMessage() {
    return vendorMessage;
  }

  /** True for the vendor's out-of-memory status, which a caching allocator answers by trimming. */
  public boolean isOutOfMemory() {
    return outOfMemory;
  }
}
