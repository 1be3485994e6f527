// --comm peer's links to the neighbours on this node (a LinkPath,
// link_path.hpp): their fields and step counts mapped into this process,
// so that the update kernels store this rank's faces straight into their
// halos and raise its step count in their memory (kernels/step_counts.hpp).
// Faces to ranks on other nodes still go by MPI (face_routes.hpp).
//
// Made once, collectively: the node's ranks exchange, per linked face, the
// handles of their two segments, where each time level's origin lies in
// them, their layout and which step-count slot is theirs to raise. Peer
// access between two GPUs is enabled explicitly (HIP long ignored the
// lazy flag).
#pragma once

#include "layout.hpp"
#include "link_path.hpp"
#include "mpi_util.hpp"
#include "node_memory.hpp"
#include "step_counts.hpp"

#include <array>
#include <cstddef>
#include <string>
#include <vector>

namespace stencil {

// Whether --comm auto may take the peer path over `comm`, after each rank
// has bound its GPU: every rank reaches every GPU of its node (the same
// one, or peer access), and whether the job is one node. Collective.
// `ranks_per_node`: as split_node (node_memory.hpp).
struct PeerReach {
    bool reachable = false, one_node = false;
    std::string why; // not reachable
};
PeerReach peer_reach(MPI_Comm comm, int ranks_per_node);

// --comm peer's link path (link_path.hpp): each neighbour on the node
// mapped once (its fields and its count words), the counts raised and
// awaited by one-thread kernels (kernels/step_counts.hpp).
class PeerLinks final : public LinkPath {
public:
    // Collective over `cart`.
    PeerLinks(MPI_Comm cart, const LinkMemory& memory, const std::vector<Face>& faces,
              const Layout& layout);
    // Unmaps every neighbour, then waits for the node's other ranks to have
    // done so, so that no segment is freed while mapped elsewhere.
    ~PeerLinks() override;
    PeerLinks(const PeerLinks&) = delete;
    PeerLinks& operator=(const PeerLinks&) = delete;

    bool linked(std::size_t f) const override { return neighbour_arrays_[f].origin[0] != nullptr; }
    const NeighbourArrays& neighbour_arrays(std::size_t f) const override {
        return neighbour_arrays_[f];
    }
    void await(Stream& stream) override { launch_await_step_counts(step_counts_, stream); }
    void signal(Stream& stream) override { launch_raise_step_counts(step_counts_, stream); }
    void restart_counts() override;

    struct ArraysMessage; // what ranks tell each other across a face (peer_links.cpp)

private:
    // Maps each linked face's neighbour from what it sent (`got`), once per
    // neighbour, and adds its count slots.
    void link(const std::vector<Face>& faces, const std::vector<bool>& linked,
              const std::vector<ArraysMessage>& got, const NodeSegment& fields);
    MPI_Comm cart_;
    NodeSegment signals_;
    std::vector<MappedSegment> mapped_; // of neighbours: fields, signals, per neighbour
    std::vector<NeighbourArrays> neighbour_arrays_;
    StepCountLinks step_counts_;
};

} // namespace stencil
