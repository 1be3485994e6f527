// What each --comm choice is and which type carries it: the one file that
// names every path type, halo paths (halo_path.hpp) and link paths
// (link_path.hpp), so that no base's file includes the types built on it. A new path adds its cases
// here: its traits (takes_fused_pack, reference_path), request_path or request_link_path, which say
// before the run whether it can be had, and make_halo_path or make_link_path, which build it.
#include "device.hpp"
#include "fatal.hpp"
#include "gpu_runtime.hpp"
#include "halo_path.hpp"
#include "link_path.hpp"
#include "nccl_comm.hpp"
#include "path_mpi.hpp"
#include "peer_links.hpp"

#include <string>

namespace stencil {

bool takes_fused_pack(CommMode mode) {
    return mode == CommMode::GpuAware || mode == CommMode::Nccl || links_node(mode);
}

std::string fused_pack_needs() {
    std::string names;
    for (const CommMode m : kCommModes)
        if (takes_fused_pack(m))
            names += (names.empty() ? "" : " or ") + std::string(comm_mode_name(m));
    return "the fused pack needs overlap on, halo depth 1 and a " + names +
           " exchange, or faces all the rank's own";
}

CommMode reference_path(CommMode mode) {
    return mode == CommMode::Nccl || links_node(mode) ? CommMode::Staged : mode;
}

// path_nccl.cpp
template <class T>
std::unique_ptr<HaloPath<T>> make_nccl_path(const std::vector<PathMessage<T>>& messages,
                                            const std::vector<std::size_t>& receive_order,
                                            MPI_Comm comm);

PathRequest request_path(CommMode mode, const GpuAwareness& aware) {
    if (links_node(mode)) return request_link_path(mode);
    switch (mode) {
    case CommMode::None:
        return {{}, "requested; no halos move"};
    case CommMode::Staged:
        return {{}, "requested"};
    case CommMode::Nccl:
        if (!STENCIL_HAS_GPU)
            return {"--comm nccl: NCCL/RCCL move GPU memory, and this is the HOST back-end; use "
                    "--comm auto",
                    {}};
        if (!nccl_available())
            return {std::string("--comm nccl: this ") + backend_name() +
                        " build has no NCCL/RCCL: CMake found no nccl.h (set NCCL_HOME, or "
                        "ROCM_PATH for RCCL, and configure again; README, \"Building\")",
                    {}};
        return {{}, "requested; NCCL/RCCL on the halo stream"};
    case CommMode::GpuAware:
        if (!aware.supported)
            return {"--comm gpu-aware: the MPI library is not GPU-aware (" + aware.reason +
                        "); use --comm staged, or set STENCIL_GPU_AWARE_MPI=1 if you know better",
                    {}};
        return {{}, aware.reason};
    default: // a link path: request_link_path, above
        break;
    }
    return {"unknown --comm choice", {}};
}

PathRequest request_link_path(CommMode mode) {
    switch (mode) {
    case CommMode::Peer:
        return {{}, "requested; faces stored into the halos of ranks on this node"};
    default:
        return {std::string("--comm ") + comm_mode_name(mode) + " reaches no neighbour's memory",
                {}};
    }
}

template <class T>
std::unique_ptr<HaloPath<T>>
make_halo_path(CommMode mode, const std::vector<PathMessage<T>>& messages,
               const std::vector<std::size_t>& receive_order, MPI_Comm comm) {
    switch (mode) {
    case CommMode::GpuAware:
        return std::make_unique<MpiPath<T>>(messages, comm, false);
    case CommMode::Staged:
        return std::make_unique<MpiPath<T>>(messages, comm, true);
    case CommMode::Nccl:
        return make_nccl_path<T>(messages, receive_order, comm);
    default: // None; a link path's faces are stored, not carried
        break;
    }
    fatal("no halo path moves the messages of --comm none");
}

template std::unique_ptr<HaloPath<float>> make_halo_path(CommMode,
                                                         const std::vector<PathMessage<float>>&,
                                                         const std::vector<std::size_t>&, MPI_Comm);
template std::unique_ptr<HaloPath<double>> make_halo_path(CommMode,
                                                          const std::vector<PathMessage<double>>&,
                                                          const std::vector<std::size_t>&,
                                                          MPI_Comm);

std::unique_ptr<LinkPath> make_link_path(CommMode mode, MPI_Comm cart, const LinkMemory& memory,
                                         const std::vector<LinkPath::Face>& faces,
                                         const Layout& layout) {
    switch (mode) {
    case CommMode::Peer:
        return std::make_unique<PeerLinks>(cart, memory, faces, layout);
    default:
        fatal(std::string("--comm ") + comm_mode_name(mode) + " reaches no neighbour's memory");
    }
}

} // namespace stencil
