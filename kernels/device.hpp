// Which device this process drives, and what it is.
#pragma once

#include <cstddef>
#include <string>

namespace stencil {

// "HOST", "HIP" or "CUDA": the back-end this library was built for.
const char* backend_name();

// Visible GPUs; 0 on the HOST back-end or on a machine without a GPU.
int device_count();
void set_device(int device);
void device_synchronize();

// How this back-end's arithmetic treats subnormal floats, for the report:
// the GPUs keep them (IEEE), the HOST back-end flushes them to zero
// (host_denormals.hpp says why).
const char* subnormal_handling();

struct DeviceInfo {
    std::string name;       // e.g. "NVIDIA H100 80GB HBM3", or the CPU on HOST
    std::string pci_bus_id; // "0000:c1:00.0"; "-" on HOST
    std::string runtime;    // runtime and driver versions, or OpenMP threads on HOST
    std::string arch;       // "gfx90a", "gfx942", "sm_90", ...; "host" on HOST
    std::size_t total_bytes = 0;
    std::size_t free_bytes = 0;
};

DeviceInfo device_info(int device);

} // namespace stencil
