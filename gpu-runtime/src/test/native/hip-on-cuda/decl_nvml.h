/* NVML: declared by hand for hip-on-cuda (test code; see hoc.h), asserted by check_cuda_decls.c. */
#ifndef HOC_DECL_NVML_H
#define HOC_DECL_NVML_H

#include "hoc.h"

/* ---- NVML: mirrors nvml.h (driver 580) ----------------------------------------------------- */
typedef int hoc_nvmlReturn_t;
typedef void *hoc_nvmlDevice_t;
enum {
    HOC_NVML_SUCCESS = 0,
    HOC_NVML_ERROR_UNINITIALIZED = 1,
    HOC_NVML_ERROR_INVALID_ARGUMENT = 2,
    HOC_NVML_ERROR_NOT_SUPPORTED = 3,
    HOC_NVML_ERROR_NO_PERMISSION = 4,
    HOC_NVML_ERROR_NOT_FOUND = 6,
    HOC_NVML_ERROR_INSUFFICIENT_SIZE = 7,
    HOC_NVML_ERROR_DRIVER_NOT_LOADED = 9,
    HOC_NVML_ERROR_TIMEOUT = 10,
    HOC_NVML_ERROR_GPU_IS_LOST = 15,
};
enum { HOC_NVML_TEMPERATURE_GPU = 0 }; /* nvmlTemperatureSensors_t */
typedef struct {                       /* nvmlMemory_t */
    unsigned long long total, free, used;
} hoc_nvmlMemory_t;
typedef struct { /* nvmlUtilization_t */
    unsigned int gpu, memory;
} hoc_nvmlUtilization_t;
typedef struct {               /* nvmlPciInfo_t (nvmlDeviceGetPciInfo_v3) */
    char busIdLegacy[16];      /* NVML_DEVICE_PCI_BUS_ID_BUFFER_V2_SIZE */
    unsigned int domain, bus, device, pciDeviceId, pciSubSystemId;
    char busId[32];            /* NVML_DEVICE_PCI_BUS_ID_BUFFER_SIZE */
} hoc_nvmlPciInfo_t;

#define HOC_NVML_FUNCTIONS(F)                                                               \
    F(nvmlInit_v2, (void))                                                                  \
    F(nvmlShutdown, (void))                                                                 \
    F(nvmlDeviceGetCount_v2, (unsigned int *deviceCount))                                   \
    F(nvmlDeviceGetHandleByIndex_v2, (unsigned int index, hoc_nvmlDevice_t * device))       \
    F(nvmlDeviceGetPciInfo_v3, (hoc_nvmlDevice_t device, hoc_nvmlPciInfo_t * pci))          \
    F(nvmlDeviceGetMemoryInfo, (hoc_nvmlDevice_t device, hoc_nvmlMemory_t * memory))        \
    F(nvmlDeviceGetUtilizationRates, (hoc_nvmlDevice_t device, hoc_nvmlUtilization_t * u))  \
    F(nvmlDeviceGetTemperature, (hoc_nvmlDevice_t device, int sensorType, unsigned int *temp)) \
    F(nvmlDeviceGetPowerUsage, (hoc_nvmlDevice_t device, unsigned int *power))

#define HOC_DECLARE_NVML(name, params) typedef hoc_nvmlReturn_t(*hoc_pfn_##name) params;
HOC_NVML_FUNCTIONS(HOC_DECLARE_NVML)

#endif
