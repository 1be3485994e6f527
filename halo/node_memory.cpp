#include "node_memory.hpp"

#include "fatal.hpp"
#include "gpu_runtime.hpp"
#include "memory.hpp"
#include "mpi_util.hpp"

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>

namespace stencil {
namespace {

constexpr std::size_t kAlignment = 256; // as every device allocation (memory.hpp)

#if STENCIL_HAS_GPU
using IpcHandle = STENCIL_RT(IpcMemHandle_t);
static_assert(sizeof(IpcHandle) <= sizeof(SegmentHandle::ipc), "an IPC handle outgrew its bytes");

void* allocate_gpu_segment(std::size_t bytes, SegmentKind kind) {
#if defined(STENCIL_BACKEND_HIP)
    if (kind == SegmentKind::Signals) {
        // Polled by one GPU while another stores into it: fine-grained, so
        // no cache holds a stale count.
        void* p = nullptr;
        GPU_CHECK(hipExtMallocWithFlags(&p, bytes, hipDeviceMallocFinegrained));
        return p;
    }
#endif
    (void)kind;
    return detail::allocate_device(bytes);
}
#endif

} // namespace

MPI_Comm split_node(MPI_Comm comm, int ranks_per_node) {
    MPI_Comm shared = MPI_COMM_NULL;
    MPI_CHECK(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shared));
    if (ranks_per_node == 0) return shared;
    if (ranks_per_node < 0) fatal("split_node: a negative number of ranks per node");
    int rank = 0;
    MPI_CHECK(MPI_Comm_rank(shared, &rank));
    MPI_Comm node = MPI_COMM_NULL;
    MPI_CHECK(MPI_Comm_split(shared, rank / ranks_per_node, rank, &node));
    MPI_CHECK(MPI_Comm_free(&shared));
    return node;
}

NodeSegment::NodeSegment(std::size_t bytes, MPI_Comm node, SegmentKind kind) : bytes_(bytes) {
    if (node == MPI_COMM_NULL) {
        base_ = data_ = detail::allocate_device(bytes);
        return;
    }
    MPI_CHECK(MPI_Comm_rank(node, &node_rank_));
#if STENCIL_HAS_GPU
    base_ = data_ = allocate_gpu_segment(bytes, kind);
    GPU_CHECK(STENCIL_RT(Memset)(data_, 0, bytes));
#else
    (void)kind;
    // Each rank's part apart from the others' (noncontiguous), over-allocated
    // so that its data can start on an aligned address.
    MPI_Info info;
    MPI_CHECK(MPI_Info_create(&info));
    MPI_CHECK(MPI_Info_set(info, "alloc_shared_noncontig", "true"));
    MPI_CHECK(
        MPI_Win_allocate_shared(MPI_Aint(bytes + kAlignment), 1, info, node, &base_, &window_));
    MPI_CHECK(MPI_Info_free(&info));
    const auto at = reinterpret_cast<std::uintptr_t>(base_);
    data_ = reinterpret_cast<void*>((at + kAlignment - 1) / kAlignment * kAlignment);
    std::memset(data_, 0, bytes);
#endif
}

SegmentHandle NodeSegment::handle() const {
    SegmentHandle h;
    h.node_rank = node_rank_;
    h.bytes = bytes_;
    h.skip = std::uint64_t(static_cast<char*>(data_) - static_cast<char*>(base_));
#if STENCIL_HAS_GPU
    IpcHandle ipc;
    GPU_CHECK(STENCIL_RT(IpcGetMemHandle)(&ipc, base_));
    std::memcpy(h.ipc, &ipc, sizeof ipc);
#endif
    return h;
}

void NodeSegment::release() noexcept {
    // A window is freed collectively: every rank of the node destroys its
    // segments at the same point of the run, as it made them.
    if (window_ != MPI_WIN_NULL)
        MPI_Win_free(&window_);
    else
        detail::free_device(base_); // hipFree frees fine-grained memory too
    data_ = base_ = nullptr;
    window_ = MPI_WIN_NULL;
}

NodeSegment::~NodeSegment() {
    release();
}

NodeSegment::NodeSegment(NodeSegment&& o) noexcept
    : data_(std::exchange(o.data_, nullptr)), base_(std::exchange(o.base_, nullptr)),
      bytes_(std::exchange(o.bytes_, 0)), window_(std::exchange(o.window_, MPI_WIN_NULL)),
      node_rank_(o.node_rank_) {}

NodeSegment& NodeSegment::operator=(NodeSegment&& o) noexcept {
    if (this != &o) {
        release();
        data_ = std::exchange(o.data_, nullptr), base_ = std::exchange(o.base_, nullptr);
        bytes_ = std::exchange(o.bytes_, 0), window_ = std::exchange(o.window_, MPI_WIN_NULL);
        node_rank_ = o.node_rank_;
    }
    return *this;
}

MappedSegment::MappedSegment(const SegmentHandle& h, const NodeSegment& local) {
#if STENCIL_HAS_GPU
    (void)local;
    IpcHandle ipc;
    std::memcpy(&ipc, h.ipc, sizeof ipc);
    GPU_CHECK(STENCIL_RT(IpcOpenMemHandle)(&data_, ipc, STENCIL_RT(IpcMemLazyEnablePeerAccess)));
    opened_ = true;
#else
    MPI_Aint size = 0;
    int unit = 0;
    void* base = nullptr;
    MPI_CHECK(MPI_Win_shared_query(local.window(), h.node_rank, &size, &unit, &base));
    if (std::uint64_t(size) < h.skip + h.bytes)
        fatal("a neighbour's shared window is smaller than it says");
    data_ = static_cast<char*>(base) + h.skip;
#endif
}

void MappedSegment::release() noexcept {
#if STENCIL_HAS_GPU
    if (opened_) (void)STENCIL_RT(IpcCloseMemHandle)(data_);
#endif
    data_ = nullptr;
    opened_ = false;
}

MappedSegment::~MappedSegment() {
    release();
}

MappedSegment::MappedSegment(MappedSegment&& o) noexcept
    : data_(std::exchange(o.data_, nullptr)), opened_(std::exchange(o.opened_, false)) {}

MappedSegment& MappedSegment::operator=(MappedSegment&& o) noexcept {
    if (this != &o) {
        release();
        data_ = std::exchange(o.data_, nullptr), opened_ = std::exchange(o.opened_, false);
    }
    return *this;
}

} // namespace stencil
