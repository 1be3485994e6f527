// A halo path: how the exchange's messages to other ranks travel. The
// exchange (halo_exchange.hpp) plans the messages, packs and unpacks them
// and fills a rank's halos from its own messages; a path only carries, once
// the pack is done, what it is handed, and says what the step must do
// around it. One type per way of moving bytes: GPU-aware MPI and MPI staged
// through pinned host memory (path_mpi.cpp), NCCL/RCCL (path_nccl.cpp).
// Adding one is its own file, its entry in comm_mode.hpp and in
// make_halo_path and request_path (paths.cpp), and its test; --comm
// takes its name from comm_mode.hpp.
#pragma once

#include "comm_mode.hpp"
#include "gpu_aware.hpp"
#include "stream.hpp"

#include <mpi.h>

#include <array>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace stencil {

// One message to another rank, as a path sees it: where its cells are
// sent from and received into, by which of the two time-level arrays holds
// p(t_n) (a z face goes as the field's own planes, so the pointers depend
// on it; packed messages use the same buffers either way).
template <class T>
struct PathMessage {
    int neighbour = 0;              // in the Cartesian communicator
    int send_tag = 0, recv_tag = 0; // for paths with tags (MPI)
    std::size_t count = 0;          // cells
    std::array<const T*, 2> send{};
    std::array<T*, 2> recv{};
};

template <class T>
class HaloPath {
public:
    virtual ~HaloPath() = default;
    // Whether the host must act between the pack and the unpack (MPI knows
    // nothing of streams); a path that enqueues its transfer on the halo
    // stream (NCCL) lets a step be one graph.
    virtual bool host_between() const = 0;
    // A step, for time-level array `array` as p(t_n): after the pack's
    // device work on `halo` (`packed` recorded after it), start the
    // transfer; complete it (host-side paths); then, before the unpack,
    // anything the unpack's inputs still need on `halo`.
    virtual void post(int array, Stream& halo, Event& packed) = 0;
    virtual void wait() {}
    virtual void before_unpack(int array, Stream& halo) { (void)array, (void)halo; }
    // Work the pack phase adds on `halo` after packing (staging copies).
    virtual void after_pack(int array, Stream& halo) { (void)array, (void)halo; }
};

// A --comm choice named on the command line: "" and why it was taken, or
// one line saying why this build or this MPI library cannot take it.
struct PathRequest {
    std::string problem, reason;
};
PathRequest request_path(CommMode mode, const GpuAwareness& aware);

// What a path allows, for the exchange, the report and --check: whether
// its sends may come straight from the fused pack's double buffers (staged
// MPI copies them to pinned memory after a pack that no longer runs); what
// the fused pack needs, in words, for messages (HaloExchange's constructor
// holds the rule: overlap, depth 1, such a path or only own faces); and the path
// --check's one-domain reference takes so as not to share what is tested
// (MPI's, where the path is another library's).
bool takes_fused_pack(CommMode mode);
std::string fused_pack_needs();
CommMode reference_path(CommMode mode);

// The path for `mode` (not None) over `messages`, posted in that order for
// sends and in `receive_order` (indices into `messages`) for receives,
// which a path without tags matches by order; collective over `comm`
// where the path needs a communicator of its own (NCCL).
template <class T>
std::unique_ptr<HaloPath<T>>
make_halo_path(CommMode mode, const std::vector<PathMessage<T>>& messages,
               const std::vector<std::size_t>& receive_order, MPI_Comm comm);

} // namespace stencil
