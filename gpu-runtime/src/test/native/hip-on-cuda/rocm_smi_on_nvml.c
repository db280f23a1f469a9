/*
 * rocm-smi -> NVML (test code; see hoc.h). rocm-smi's device index is NVML's; the project matches
 * devices by PCI address (rsmi_dev_pci_id_get), which is what makes that correct, as on AMD.
 */
#define _GNU_SOURCE
#include "hoc.h"

#include <dlfcn.h>
#include <rocm_smi/rocm_smi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "decl_nvml.h"

static struct {
#define HOC_MEMBER(name, params) hoc_pfn_##name name;
    HOC_NVML_FUNCTIONS(HOC_MEMBER)
#undef HOC_MEMBER
} nvml;
static int nvml_loaded;
static pthread_once_t nvml_once = PTHREAD_ONCE_INIT;

static void load_nvml(void) {
    const char *env = getenv("HIP_ON_CUDA_LIBNVML");
    void *h = hoc_dlopen_first((const char *const[]){env && *env ? env : "libnvidia-ml.so.1", NULL});
    if (!h) return;
#define HOC_RESOLVE(name, params) \
    if (!(nvml.name = (hoc_pfn_##name)dlsym(h, #name))) return;
    HOC_NVML_FUNCTIONS(HOC_RESOLVE)
#undef HOC_RESOLVE
    nvml_loaded = 1;
}

static rsmi_status_t rsmi_of(hoc_nvmlReturn_t r) {
    switch (r) {
        case HOC_NVML_SUCCESS: return RSMI_STATUS_SUCCESS;
        case HOC_NVML_ERROR_UNINITIALIZED: return RSMI_STATUS_INIT_ERROR;
        case HOC_NVML_ERROR_INVALID_ARGUMENT: return RSMI_STATUS_INVALID_ARGS;
        case HOC_NVML_ERROR_NOT_SUPPORTED: return RSMI_STATUS_NOT_SUPPORTED;
        case HOC_NVML_ERROR_NO_PERMISSION: return RSMI_STATUS_PERMISSION;
        case HOC_NVML_ERROR_NOT_FOUND: return RSMI_STATUS_NOT_FOUND;
        case HOC_NVML_ERROR_INSUFFICIENT_SIZE: return RSMI_STATUS_INSUFFICIENT_SIZE;
        case HOC_NVML_ERROR_DRIVER_NOT_LOADED: return RSMI_STATUS_INIT_ERROR;
        case HOC_NVML_ERROR_TIMEOUT: return RSMI_STATUS_BUSY;
        case HOC_NVML_ERROR_GPU_IS_LOST: return RSMI_STATUS_AMDGPU_RESTART_ERR;
        default: return RSMI_STATUS_UNKNOWN_ERROR;
    }
}

static int initialised;

rsmi_status_t rsmi_init(uint64_t init_flags) {
    HOC_COUNT(rsmi_init);
    (void)init_flags;
    pthread_once(&nvml_once, load_nvml);
    if (!nvml_loaded) return RSMI_STATUS_INIT_ERROR; /* what rocm-smi answers without the amdgpu driver */
    rsmi_status_t s = rsmi_of(nvml.nvmlInit_v2());
    if (s == RSMI_STATUS_SUCCESS) __atomic_add_fetch(&initialised, 1, __ATOMIC_RELAXED);
    return s;
}

rsmi_status_t rsmi_shut_down(void) {
    HOC_COUNT(rsmi_shut_down);
    if (!nvml_loaded || __atomic_load_n(&initialised, __ATOMIC_RELAXED) == 0) return RSMI_STATUS_INIT_ERROR;
    __atomic_sub_fetch(&initialised, 1, __ATOMIC_RELAXED);
    return rsmi_of(nvml.nvmlShutdown());
}

static rsmi_status_t device(uint32_t dv_ind, hoc_nvmlDevice_t *out) {
    if (!nvml_loaded || __atomic_load_n(&initialised, __ATOMIC_RELAXED) == 0) return RSMI_STATUS_INIT_ERROR;
    hoc_nvmlReturn_t r = nvml.nvmlDeviceGetHandleByIndex_v2(dv_ind, out);
    return r == HOC_NVML_ERROR_INVALID_ARGUMENT ? RSMI_STATUS_INVALID_ARGS : rsmi_of(r);
}

rsmi_status_t rsmi_num_monitor_devices(uint32_t *num_devices) {
    HOC_COUNT(rsmi_num_monitor_devices);
    if (!num_devices) return RSMI_STATUS_INVALID_ARGS;
    if (!nvml_loaded || __atomic_load_n(&initialised, __ATOMIC_RELAXED) == 0) return RSMI_STATUS_INIT_ERROR;
    unsigned int n = 0;
    rsmi_status_t s = rsmi_of(nvml.nvmlDeviceGetCount_v2(&n));
    *num_devices = n;
    return s;
}

rsmi_status_t rsmi_dev_pci_id_get(uint32_t dv_ind, uint64_t *bdfid) {
    HOC_COUNT(rsmi_dev_pci_id_get);
    if (!bdfid) return RSMI_STATUS_INVALID_ARGS;
    hoc_nvmlDevice_t d;
    rsmi_status_t s = device(dv_ind, &d);
    if (s != RSMI_STATUS_SUCCESS) return s;
    hoc_nvmlPciInfo_t pci;
    if ((s = rsmi_of(nvml.nvmlDeviceGetPciInfo_v3(d, &pci))) != RSMI_STATUS_SUCCESS) return s;
    /* busId is "dddddddd:bb:dd.f"; rocm-smi's BDFID is domain << 32 | bus << 8 | device << 3 | function */
    unsigned int domain, bus, dev, function;
    if (sscanf(pci.busId, "%x:%x:%x.%x", &domain, &bus, &dev, &function) != 4) return RSMI_STATUS_UNEXPECTED_DATA;
    *bdfid = (uint64_t)domain << 32 | (uint64_t)bus << 8 | (uint64_t)(dev & 0x1f) << 3 | (function & 0x7);
    return RSMI_STATUS_SUCCESS;
}

static rsmi_status_t memory(uint32_t dv_ind, rsmi_memory_type_t mem_type, hoc_nvmlMemory_t *m) {
    if (mem_type != RSMI_MEM_TYPE_VRAM) return RSMI_STATUS_NOT_SUPPORTED; /* NVIDIA has no visible-VRAM/GTT split */
    hoc_nvmlDevice_t d;
    rsmi_status_t s = device(dv_ind, &d);
    return s != RSMI_STATUS_SUCCESS ? s : rsmi_of(nvml.nvmlDeviceGetMemoryInfo(d, m));
}

rsmi_status_t rsmi_dev_memory_total_get(uint32_t dv_ind, rsmi_memory_type_t mem_type, uint64_t *total) {
    HOC_COUNT(rsmi_dev_memory_total_get);
    if (!total) return RSMI_STATUS_INVALID_ARGS;
    hoc_nvmlMemory_t m;
    rsmi_status_t s = memory(dv_ind, mem_type, &m);
    if (s == RSMI_STATUS_SUCCESS) *total = m.total;
    return s;
}

rsmi_status_t rsmi_dev_memory_usage_get(uint32_t dv_ind, rsmi_memory_type_t mem_type, uint64_t *used) {
    HOC_COUNT(rsmi_dev_memory_usage_get);
    if (!used) return RSMI_STATUS_INVALID_ARGS;
    hoc_nvmlMemory_t m;
    rsmi_status_t s = memory(dv_ind, mem_type, &m);
    if (s == RSMI_STATUS_SUCCESS) *used = m.used;
    return s;
}

rsmi_status_t rsmi_dev_busy_percent_get(uint32_t dv_ind, uint32_t *busy_percent) {
    HOC_COUNT(rsmi_dev_busy_percent_get);
    if (!busy_percent) return RSMI_STATUS_INVALID_ARGS;
    hoc_nvmlDevice_t d;
    rsmi_status_t s = device(dv_ind, &d);
    if (s != RSMI_STATUS_SUCCESS) return s;
    hoc_nvmlUtilization_t u;
    if ((s = rsmi_of(nvml.nvmlDeviceGetUtilizationRates(d, &u))) == RSMI_STATUS_SUCCESS) *busy_percent = u.gpu;
    return s;
}

rsmi_status_t rsmi_dev_temp_metric_get(uint32_t dv_ind, uint32_t sensor_type, rsmi_temperature_metric_t metric,
                                       int64_t *temperature) {
    HOC_COUNT(rsmi_dev_temp_metric_get);
    if (!temperature) return RSMI_STATUS_INVALID_ARGS;
    /* NVML has one current GPU temperature: it answers for the edge and junction sensors */
    if (metric != RSMI_TEMP_CURRENT) return RSMI_STATUS_NOT_SUPPORTED;
    if (sensor_type != RSMI_TEMP_TYPE_EDGE && sensor_type != RSMI_TEMP_TYPE_JUNCTION) return RSMI_STATUS_NOT_SUPPORTED;
    hoc_nvmlDevice_t d;
    rsmi_status_t s = device(dv_ind, &d);
    if (s != RSMI_STATUS_SUCCESS) return s;
    unsigned int celsius;
    s = rsmi_of(nvml.nvmlDeviceGetTemperature(d, HOC_NVML_TEMPERATURE_GPU, &celsius));
    if (s == RSMI_STATUS_SUCCESS) *temperature = (int64_t)celsius * 1000; /* rocm-smi: millidegrees */
    return s;
}

rsmi_status_t rsmi_dev_power_get(uint32_t dv_ind, uint64_t *power, RSMI_POWER_TYPE *type) {
    HOC_COUNT(rsmi_dev_power_get);
    if (!power || !type) return RSMI_STATUS_INVALID_ARGS;
    *type = RSMI_INVALID_POWER;
    hoc_nvmlDevice_t d;
    rsmi_status_t s = device(dv_ind, &d);
    if (s != RSMI_STATUS_SUCCESS) return s;
    unsigned int milliwatts;
    s = rsmi_of(nvml.nvmlDeviceGetPowerUsage(d, &milliwatts));
    if (s == RSMI_STATUS_SUCCESS) {
        *power = (uint64_t)milliwatts * 1000; /* rocm-smi: microwatts */
        *type = RSMI_CURRENT_POWER;
    }
    return s;
}

rsmi_status_t rsmi_status_string(rsmi_status_t status, const char **status_string) {
    HOC_COUNT(rsmi_status_string);
    if (!status_string) return RSMI_STATUS_INVALID_ARGS;
    switch (status) {
#define NAME(s, text)          \
    case s:                    \
        *status_string = #s ": " text; \
        break;
        NAME(RSMI_STATUS_SUCCESS, "Success")
        NAME(RSMI_STATUS_INVALID_ARGS, "Invalid arguments")
        NAME(RSMI_STATUS_NOT_SUPPORTED, "Not supported")
        NAME(RSMI_STATUS_FILE_ERROR, "File error")
        NAME(RSMI_STATUS_PERMISSION, "Permission denied")
        NAME(RSMI_STATUS_OUT_OF_RESOURCES, "Out of resources")
        NAME(RSMI_STATUS_INTERNAL_EXCEPTION, "Internal exception")
        NAME(RSMI_STATUS_INPUT_OUT_OF_BOUNDS, "Input out of bounds")
        NAME(RSMI_STATUS_INIT_ERROR, "Initialization error")
        NAME(RSMI_STATUS_NOT_YET_IMPLEMENTED, "Not yet implemented")
        NAME(RSMI_STATUS_NOT_FOUND, "Not found")
        NAME(RSMI_STATUS_INSUFFICIENT_SIZE, "Insufficient size")
        NAME(RSMI_STATUS_INTERRUPT, "Interrupted")
        NAME(RSMI_STATUS_UNEXPECTED_SIZE, "Unexpected size")
        NAME(RSMI_STATUS_NO_DATA, "No data")
        NAME(RSMI_STATUS_UNEXPECTED_DATA, "Unexpected data")
        NAME(RSMI_STATUS_BUSY, "Busy")
        NAME(RSMI_STATUS_REFCOUNT_OVERFLOW, "Reference count overflow")
        NAME(RSMI_STATUS_SETTING_UNAVAILABLE, "Setting unavailable")
        NAME(RSMI_STATUS_AMDGPU_RESTART_ERR, "AMDGPU restart failed")
        NAME(RSMI_STATUS_DRM_ERROR, "DRM error")
        NAME(RSMI_STATUS_FAIL_LOAD_MODULE, "Failed to load module")
        NAME(RSMI_STATUS_FAIL_LOAD_SYMBOL, "Failed to load symbol")
        NAME(RSMI_STATUS_UNKNOWN_ERROR, "Unknown error")
#undef NAME
        default: return RSMI_STATUS_INVALID_ARGS;
    }
    return RSMI_STATUS_SUCCESS;
}
