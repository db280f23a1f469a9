/*
 * C-level check of a built hip-on-cuda (run by build.sh's caller: HipOnCudaLibraryTests, CI):
 * every name the Java holders load opens one and the same object, which exports every symbol of
 * symbols.def; without libcuda (CI) HIP answers "no device" cleanly, the libraries fail as their
 * ROCm originals do without a GPU, and the call counters count.
 *
 * usage: test-hoc LIBDIR     (exit 0 when every check passes)
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int failures;
#define CHECK(cond, ...)                          \
    do {                                          \
        if (!(cond)) {                            \
            failures++;                           \
            fprintf(stderr, "FAILED: " __VA_ARGS__); \
            fputc('\n', stderr);                  \
        }                                         \
    } while (0)

static const char *const symbols[] = {
#define X(name, lib) #name,
#include "symbols.def"
#undef X
};

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: test-hoc LIBDIR\n");
        return 2;
    }
    const char *names[] = {"libamdhip64.so.6", "librocblas.so.4", "libMIOpen.so.1", "librocm_smi64.so.1"};
    void *handles[4];
    for (int i = 0; i < 4; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", argv[1], names[i]);
        handles[i] = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        CHECK(handles[i], "dlopen %s: %s", path, dlerror());
        if (!handles[i]) return 1;
        CHECK(handles[i] == handles[0], "%s is not the same object as %s", names[i], names[0]);
    }
    int exported = 0;
    for (size_t i = 0; i < sizeof symbols / sizeof symbols[0]; i++) {
        void *s = dlsym(handles[0], symbols[i]);
        CHECK(s, "%s not exported", symbols[i]);
        exported += s != NULL;
    }
    printf("test-hoc: %d of %zu symbols exported\n", exported, sizeof symbols / sizeof symbols[0]);

    int (*getCount)(int *) = (int (*)(int *))dlsym(handles[0], "hipGetDeviceCount");
    const char *(*errorName)(int) = (const char *(*)(int))dlsym(handles[0], "hipGetErrorName");
    const char *(*errorString)(int) = (const char *(*)(int))dlsym(handles[0], "hipGetErrorString");
    int (*version)(int *) = (int (*)(int *))dlsym(handles[0], "hipRuntimeGetVersion");
    int (*setDevice)(int) = (int (*)(int))dlsym(handles[0], "hipSetDevice");
    int (*hipMalloc)(void **, size_t) = (int (*)(void **, size_t))dlsym(handles[0], "hipMalloc");
    int (*rsmiInit)(uint64_t) = (int (*)(uint64_t))dlsym(handles[0], "rsmi_init");
    int (*rsmiString)(int, const char **) = (int (*)(int, const char **))dlsym(handles[0], "rsmi_status_string");
    int (*blasCreate)(void **) = (int (*)(void **))dlsym(handles[0], "rocblas_create_handle");
    const char *(*blasString)(int) = (const char *(*)(int))dlsym(handles[0], "rocblas_status_to_string");
    const char *(*miopenString)(int) = (const char *(*)(int))dlsym(handles[0], "miopenGetErrorString");
    int (*writeTrace)(const char *) = (int (*)(const char *))dlsym(handles[0], "hipOnCudaWriteTrace");
    if (failures) return 1;

    int v = 0;
    CHECK(version(&v) == 0 && v / 10000000 == 6, "hipRuntimeGetVersion: %d", v);
    CHECK(strcmp(errorName(100), "hipErrorNoDevice") == 0, "hipGetErrorName(100) = %s", errorName(100));
    CHECK(strcmp(errorName(2), "hipErrorOutOfMemory") == 0, "hipGetErrorName(2) = %s", errorName(2));
    CHECK(strcmp(errorName(719), "hipErrorLaunchFailure") == 0, "hipGetErrorName(719) = %s", errorName(719));
    CHECK(strcmp(errorName(700), "hipErrorIllegalAddress") == 0, "hipGetErrorName(700) = %s", errorName(700));
    CHECK(strcmp(errorString(2), "out of memory") == 0, "hipGetErrorString(2) = %s", errorString(2));
    CHECK(strcmp(blasString(5), "rocblas_status_memory_error") == 0, "rocblas_status_to_string(5) = %s", blasString(5));
    CHECK(strcmp(miopenString(4), "miopenStatusAllocFailed") == 0, "miopenGetErrorString(4)");
    const char *text = NULL;
    CHECK(rsmiString(8, &text) == 0 && text && strstr(text, "RSMI_STATUS_INIT_ERROR"), "rsmi_status_string(8)");

    void *cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (cuda) {
        printf("test-hoc: libcuda.so.1 is present, the no-device checks are skipped\n");
    } else {
        int count = -1;
        CHECK(getCount(&count) == 100 && count == 0, "hipGetDeviceCount without libcuda: count %d", count);
        CHECK(setDevice(0) == 100, "hipSetDevice without libcuda");
        void *p = (void *)1;
        CHECK(hipMalloc(&p, 16) == 100, "hipMalloc without libcuda");
        void *h = NULL;
        CHECK(blasCreate(&h) != 0 && h == NULL, "rocblas_create_handle without a device");
        if (!dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL))
            CHECK(rsmiInit(0) == 8, "rsmi_init without NVML is RSMI_STATUS_INIT_ERROR");
        printf("test-hoc: without libcuda hipGetDeviceCount answers hipErrorNoDevice (100)\n");
    }

    char trace[] = "/tmp/test-hoc-trace-XXXXXX";
    int fd = mkstemp(trace);
    CHECK(fd >= 0, "mkstemp");
    close(fd);
    CHECK(writeTrace(trace) == 0, "hipOnCudaWriteTrace");
    FILE *f = fopen(trace, "r");
    char line[256];
    int found = 0;
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "hipGetErrorName\thip\t", 20) == 0 && atoi(line + 20) >= 4) found = 1;
    if (f) fclose(f);
    unlink(trace);
    CHECK(found, "the trace counts hipGetErrorName's calls");

    if (failures) {
        fprintf(stderr, "test-hoc: %d check(s) failed\n", failures);
        return 1;
    }
    printf("test-hoc: all checks passed\n");
    return 0;
}
