// The halo paths a run can take, by name: what the plan and the report
// need without the exchange itself (halo_exchange.hpp).
#pragma once

namespace stencil {

// GpuAware hands device buffers to MPI; Staged copies through pinned host
// buffers; Nccl enqueues NCCL/RCCL sends and receives on the halo stream;
// Peer stores faces straight into the halos of neighbours on the same node
// (faces to other nodes by GpuAware); None moves nothing (timing only).
enum class CommMode { Staged, GpuAware, Nccl, Peer, None };

// Every path, in the order --help lists them.
inline constexpr CommMode kCommModes[] = {CommMode::Staged, CommMode::GpuAware, CommMode::Nccl,
                                          CommMode::Peer, CommMode::None};

// Whether `mode` is a link path (link_path.hpp) rather than a halo path
// (halo_path.hpp): faces to ranks on the node stored by the update kernels
// into their halos, the rest carried by GPU-aware MPI.
inline constexpr bool links_node(CommMode mode) {
    return mode == CommMode::Peer;
}

// "staged", "gpu-aware", "nccl", "peer", "none": as --comm spells them.
inline const char* comm_mode_name(CommMode mode) {
    switch (mode) {
    case CommMode::Staged:
        return "staged";
    case CommMode::GpuAware:
        return "gpu-aware";
    case CommMode::Nccl:
        return "nccl";
    case CommMode::Peer:
        return "peer";
    case CommMode::None:
        return "none";
    }
    return "?";
}

} // namespace stencil
