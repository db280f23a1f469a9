package com.llmserve.gpu.hip;

import static com.llmserve.gpu.spi.CTypes.*;

import com.llmserve.gpu.spi.NativeLibrary;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * MIOpen ({@code miopen/miopen.h}): handle bound to a HIP stream, tensor and activation
 * descriptors, softmax and activation forward.
 */
public final class miopen_h {

    private miopen_h() {}

    /** The header these declarations mirror; the binding checks compile against it. */
    public static final String HEADER = "miopen/miopen.h";

    /** MIOpen 1 (ROCm 6). */
    public static final NativeLibrary LIBRARY = NativeLibrary.load("libMIOpen.so.1");

    public static final int miopenStatusSuccess = 0;
    public static final int miopenStatusAllocFailed = 4;
    public static final int miopenHalf = 0;
    public static final int miopenFloat = 1;
    public static final int MIOPEN_SOFTMAX_ACCURATE = 1;
    public static final int MIOPEN_SOFTMAX_MODE_CHANNEL = 1;

    private static final MethodHandle miopenCreateWithStream$MH =
            LIBRARY.downcall("miopenCreateWithStream", FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER));

    /** {@code miopenStatus_t miopenCreateWithStream(miopenHandle_t* handle, miopenAcceleratorQueue_t stream)} */
    public static int miopenCreateWithStream(MemorySegment handle, MemorySegment stream) {
        try {
            return (int) miopenCreateWithStream$MH.invokeExact(handle, stream);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle miopenDestroy$MH =
            LIBRARY.downcall("miopenDestroy", FunctionDescriptor.of(C_INT, C_POINTER));

    /** {@code miopenStatus_t miopenDestroy(miopenHandle_t handle)} */
    public static int miopenDestroy(MemorySegment handle) {
        try {
            return (int) miopenDestroy$MH.invokeExact(handle);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle miopenGetErrorString$MH =
            LIBRARY.downcall("miopenGetErrorString", FunctionDescriptor.of(C_POINTER, C_INT));

    /** {@code const char* miopenGetErrorString(miopenStatus_t error)} */
    public static MemorySegment miopenGetErrorString(int error) {
        try {
            return (MemorySegment) miopenGetErrorString$MH.invokeExact(error);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle miopenCreateTensorDescriptor$MH =
            LIBRARY.downcall("miopenCreateTensorDescriptor", FunctionDescriptor.of(C_INT, C_POINTER));

    /** {@code miopenStatus_t miopenCreateTensorDescriptor(miopenTensorDescriptor_t* tensorDesc)} */
    public static int miopenCreateTensorDescriptor(MemorySegment tensorDesc) {
        try {
            return (int) miopenCreateTensorDescriptor$MH.invokeExact(tensorDesc);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle miopenSet4dTensorDescriptor$MH = LIBRARY.downcall(
            "miopenSet4dTensorDescriptor", FunctionDescriptor.of(C_INT, C_POINTER, C_INT, C_INT, C_INT, C_INT, C_INT));

    /** {@code miopenStatus_t miopenSet4dTensorDescriptor(miopenTensorDescriptor_t tensorDesc, miopenDataType_t dataType, int n, int c, int h, int w)} */
    public static int miopenSet4dTensorDescriptor(MemorySegment tensorDesc, int dataType, int n, int c, int h, int w) {
        try {
            return (int) miopenSet4dTensorDescriptor$MH.invokeExact(tensorDesc, dataType, n, c, h, w);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle miopenDestroyTensorDescriptor$MH =
            LIBRARY.downcall("miopenDestroyTensorDescriptor", FunctionDescriptor.of(C_INT, C_POINTER));

    /** {@code miopenStatus_t miopenDestroyTensorDescriptor(miopenTensorDescriptor_t tensorDesc)} */
    public static int miopenDestroyTensorDescriptor(MemorySegment tensorDesc) {
        try {
            return (int) miopenDestroyTensorDescriptor$MH.invokeExact(tensorDesc);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }

    private static final MethodHandle miopenSoftmaxForward_V2$MH = LIBRARY.downcall(
            "miopenSoftmaxForward_V2",
            FunctionDescriptor.of(
                    C_INT, C_POINTER, C_POINTER, C_POINTER, C_POINTER, C_POINTER, C_POINTER, C_POINTER, C_INT, C_INT));

    /** {@code miopenStatus_t miopenSoftmaxForward_V2(miopenHandle_t handle, const void* alpha, const miopenTensorDescriptor_t xDesc, const void* x, const void* beta, const miopenTensorDescriptor_t yDesc, void* y, miopenSoftmaxAlgorithm_t algorithm, miopenSoftmaxMode_t mode)} */
    public static int miopenSoftmaxForward_V2(
            MemorySegment handle,
            MemorySegment alpha,
            MemorySegment xDesc,
            MemorySegment x,
            MemorySegment beta,
            MemorySegment yDesc,
            MemorySegment y,
            int algorithm,
            int mode) {
        try {
            return (int)
                    miopenSoftmaxForward_V2$MH.invokeExact(handle, alpha, xDesc, x, beta, yDesc, y, algorithm, mode);
        } catch (Throwable t) {
            throw NativeLibrary.rethrow(t);
        }
    }
}
