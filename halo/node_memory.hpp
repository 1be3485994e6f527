// Memory the other ranks of this node may reach (--comm peer): the two
// time levels of the field, whose halos neighbours store into, and the
// step counts they raise (kernels/step_counts.hpp).
//
// On a GPU a segment is one device allocation that other processes open
// through an IPC handle (cudaIpc* / hipIpc*); the step counts are
// fine-grained memory on AMD GPUs, so that a kernel polling them sees a
// neighbour's store without a cache flush. On the HOST back-end a segment
// is this rank's part of an MPI shared-memory window of the node
// (MPI_Win_allocate_shared), so CI runs the same path between processes.
// Between processes only offsets within a segment travel, never addresses.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace stencil {

enum class SegmentKind { Fields, Signals };

// What a neighbour needs to map a segment: the IPC handle (GPU) or the
// owner's rank in the node's communicator (HOST). Plain bytes, sent by MPI.
struct SegmentHandle {
    unsigned char ipc[64] = {};
    int node_rank = -1;
    std::uint64_t bytes = 0;
    std::uint64_t skip = 0; // HOST: bytes from the window part's start to the aligned data
};

// The ranks of this rank's node within `comm`: MPI's shared-memory split.
// A `ranks_per_node` from 1 splits that further into blocks of that many
// ranks, so that one machine can try faces that cross "nodes"; 0 keeps the
// nodes MPI sees. The caller decides the size, so halo/ reads no setting.
MPI_Comm split_node(MPI_Comm comm, int ranks_per_node);

// An owner of one segment, 256-byte aligned. Collective over `node` on the
// HOST back-end: every rank of it makes its segments in the same order.
// `node` MPI_COMM_NULL: memory no other rank maps (device memory, or on
// the HOST back-end aligned host memory).
class NodeSegment {
public:
    NodeSegment() = default;
    NodeSegment(std::size_t bytes, MPI_Comm node, SegmentKind kind);
    ~NodeSegment();
    NodeSegment(NodeSegment&& other) noexcept;
    NodeSegment& operator=(NodeSegment&& other) noexcept;
    NodeSegment(const NodeSegment&) = delete;
    NodeSegment& operator=(const NodeSegment&) = delete;

    void* data() const { return data_; }
    std::size_t bytes() const { return bytes_; }
    SegmentHandle handle() const;
    MPI_Win window() const { return window_; }

private:
    void release() noexcept;
    void* data_ = nullptr;
    void* base_ = nullptr; // the allocation (data_ is it aligned)
    std::size_t bytes_ = 0;
    MPI_Win window_ = MPI_WIN_NULL;
    int node_rank_ = -1;
};

// A neighbour's segment, mapped into this process; unmapped (the IPC
// handle closed) before the owner may free it, which the caller ensures by
// a barrier before any owner is destroyed. `local` is this rank's segment
// of the same collective allocation (HOST: the window both are parts of).
class MappedSegment {
public:
    MappedSegment() = default;
    MappedSegment(const SegmentHandle& handle, const NodeSegment& local);
    ~MappedSegment();
    MappedSegment(MappedSegment&& other) noexcept;
    MappedSegment& operator=(MappedSegment&& other) noexcept;
    MappedSegment(const MappedSegment&) = delete;
    MappedSegment& operator=(const MappedSegment&) = delete;

    void* data() const { return data_; }

private:
    void release() noexcept;
    void* data_ = nullptr;
    bool opened_ = false; // by IPC, to be closed
};

} // namespace stencil
