// Back-end implementation of device.hpp: which device, and what it is.
#include "device.hpp"

#include "gpu_runtime.hpp"

#include <fstream>
#include <string>

#if !STENCIL_HAS_GPU
#include "host_denormals.hpp"

#include <omp.h>
#endif

namespace stencil {

const char* backend_name() {
#if defined(STENCIL_BACKEND_HIP)
    return "HIP";
#elif defined(STENCIL_BACKEND_CUDA)
    return "CUDA";
#else
    return "HOST";
#endif
}

int device_count() {
#if STENCIL_HAS_GPU
    int count = 0;
    // No driver or no device is an answer (zero), not an error: GPU tests then skip.
    if (STENCIL_RT(GetDeviceCount)(&count) != gpu::kSuccess) {
        (void)STENCIL_RT(GetLastError)();
        return 0;
    }
    return count;
#else
    return 0;
#endif
}

void set_device(int device) {
#if STENCIL_HAS_GPU
    GPU_CHECK(STENCIL_RT(SetDevice)(device));
#else
    (void)device;
#endif
}

const char* subnormal_handling() {
#if STENCIL_HAS_GPU
    return "subnormals kept (IEEE)";
#else
    return host_denormal_mode();
#endif
}

void device_synchronize() {
#if STENCIL_HAS_GPU
    GPU_CHECK(STENCIL_RT(DeviceSynchronize)());
#endif
}

namespace {
#if !STENCIL_HAS_GPU
std::string host_cpu_name() {
    std::ifstream cpuinfo("/proc/cpuinfo");
    std::string line;
    while (std::getline(cpuinfo, line))
        if (line.rfind("model name", 0) == 0) {
            const auto colon = line.find(':');
            if (colon != std::string::npos) return line.substr(colon + 2);
        }
    return "host CPU";
}
#endif
} // namespace

DeviceInfo device_info(int device) {
    DeviceInfo info;
#if STENCIL_HAS_GPU
    gpu::DeviceProperties props{};
    GPU_CHECK(STENCIL_RT(GetDeviceProperties)(&props, device));
    info.name = props.name;
#if defined(STENCIL_BACKEND_HIP)
    const std::string gcn = props.gcnArchName; // "gfx90a:sramecc+:xnack-"
    info.arch = gcn.substr(0, gcn.find(':'));
#else
    info.arch = "sm_" + std::to_string(props.major) + std::to_string(props.minor);
#endif
    char bus[32] = {0};
    GPU_CHECK(STENCIL_RT(DeviceGetPCIBusId)(bus, sizeof bus, device));
    info.pci_bus_id = bus;
    int runtime = 0, driver = 0;
    GPU_CHECK(STENCIL_RT(RuntimeGetVersion)(&runtime));
    GPU_CHECK(STENCIL_RT(DriverGetVersion)(&driver));
    info.runtime = std::string(backend_name()) + " runtime " + std::to_string(runtime) +
                   ", driver " + std::to_string(driver);
    int current = 0;
    GPU_CHECK(STENCIL_RT(GetDevice)(&current));
    GPU_CHECK(STENCIL_RT(SetDevice)(device));
    GPU_CHECK(STENCIL_RT(MemGetInfo)(&info.free_bytes, &info.total_bytes));
    GPU_CHECK(STENCIL_RT(SetDevice)(current));
#else
    (void)device;
    info.name = host_cpu_name();
    info.pci_bus_id = "-";
    info.arch = "host";
    info.runtime = "OpenMP, " + std::to_string(omp_get_max_threads()) + " threads";
#endif
    return info;
}

} // namespace stencil
