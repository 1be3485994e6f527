// The halo paths a run can take, by name: what the plan and the report
// need without the exchange itself (halo_exchange.hpp).
#pragma once

namespace stencil {

// GpuAware hands device buffers to MPI; Staged copies through pinned host
// buffers; Nccl enqueues NCCL/RCCL sends and receives on the halo stream;
// None moves nothing (timing only).
enum class CommMode { Staged, GpuAware, Nccl, None };

// Every path, in the order --help lists them.
inline constexpr CommMode kCommModes[] = {CommMode::Staged, CommMode::GpuAware, CommMode::Nccl,
                                          CommMode::None};

// "staged", "gpu-aware", "nccl", "none": as --comm spells them.
inline const char* comm_mode_name(CommMode mode) {
    switch (mode) {
    case CommMode::Staged:
        return "staged";
    case CommMode::GpuAware:
        return "gpu-aware";
    case CommMode::Nccl:
        return "nccl";
    case CommMode::None:
        return "none";
    }
    return "?";
}

} // namespace stencil
