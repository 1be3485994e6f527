// --comm peer's links to the neighbours on this node: their fields, step
// counts and mailboxes mapped into this process, so that the boundary
// update stores this rank's faces straight into their halos (the fused
// pack's sinks, pointed at them; x faces, rows of R cells, whole into a
// mailbox the neighbour unpacks) and raises its step count in their memory
// (kernels/epochs.hpp). No pack, no message; faces to ranks on other nodes
// still go by MPI (HaloExchange keeps those).
//
// Made once, collectively: the node's ranks exchange, per linked face, the
// handles of their three segments, where each time level's origin and the
// face's mailbox lie in them, their layout and which step-count slot is
// theirs to raise. Peer access between two GPUs is enabled explicitly (HIP
// long ignored the lazy flag).
#pragma once

#include "epochs.hpp"
#include "layout.hpp"
#include "mpi_util.hpp"
#include "node_memory.hpp"

#include <array>
#include <cstddef>
#include <string>
#include <vector>

namespace stencil {

// Whether --comm auto may take the peer path over `comm`, after each rank
// has bound its GPU: every rank reaches every GPU of its node (the same
// one, or peer access), and whether the job is one node. Collective.
struct PeerReach {
    bool reachable = false, one_node = false;
    std::string why; // not reachable
};
PeerReach peer_reach(MPI_Comm comm);

class PeerLinks {
public:
    // A face this rank sends towards `direction` (decomposition.hpp's index)
    // to `peer` (a rank of `cart`, never this one).
    // `mailbox_bytes`: a buffer per time level that the neighbour's
    // cells for this face land in whole, for this rank to unpack (0: none,
    // the neighbour stores straight into the halo).
    struct Face {
        int direction = 0, peer = 0;
        std::size_t mailbox_bytes = 0;
    };
    // Where a linked face's cells land: the neighbour's layout and the
    // origin of each of its time levels, as mapped here, and its mailbox
    // for this face, if it has one. The neighbour's arrays are indexed as
    // this rank's: the one p(t_n+1) is written into.
    struct Landing {
        Layout layout;
        std::array<char*, 2> origin{};
        std::array<char*, 2> mailbox{};
    };
    // `fields`: this rank's segment of both time levels, whose origins lie
    // `origin_bytes` into it; `node`: the communicator it was made over
    // (split_node). Collective over `cart`.
    PeerLinks(MPI_Comm cart, MPI_Comm node, const std::vector<Face>& faces, const Layout& layout,
              const NodeSegment& fields, const std::array<std::size_t, 2>& origin_bytes);
    // Unmaps every neighbour, then waits for the node's other ranks to have
    // done so, so that no segment is freed while mapped elsewhere.
    ~PeerLinks();
    PeerLinks(const PeerLinks&) = delete;
    PeerLinks& operator=(const PeerLinks&) = delete;

    // Whether face `f` (an index into the faces given) is on this node.
    bool linked(std::size_t f) const { return landing_[f].origin[0] != nullptr; }
    const Landing& landing(std::size_t f) const { return landing_[f]; }
    // This rank's mailbox for face f and time level `array` (Face::mailbox_bytes).
    char* mailbox(std::size_t f, int array) const {
        return static_cast<char*>(mailboxes_.data()) + mailbox_offset_[f][std::size_t(array)];
    }
    int links() const { return epochs_.count; }
    const EpochLinks& epochs() const { return epochs_; }
    // Zeroes this rank's counts, with every rank of `cart` settled (no raise
    // in flight); the caller holds a barrier before and after.
    void reset_counts();

    struct LandingMessage; // what ranks tell each other across a face (peer_links.cpp)

private:
    // Maps each linked face's neighbour from what it sent (`got`), once per
    // neighbour, and adds its count slots.
    void link(const std::vector<Face>& faces, const std::vector<bool>& linked,
              const std::vector<LandingMessage>& got, const NodeSegment& fields);
    MPI_Comm cart_;
    NodeSegment signals_, mailboxes_;
    std::vector<std::array<std::size_t, 2>> mailbox_offset_; // by face, in mailboxes_
    std::vector<MappedSegment> mapped_; // of neighbours: fields, signals, mailboxes, per neighbour
    std::vector<Landing> landing_;
    EpochLinks epochs_;
};

} // namespace stencil
