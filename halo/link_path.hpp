// A link path: how the update kernels of a rank reach the halos of its
// neighbours on the same node, so that a face whose neighbour is there
// travels as no message (the linked route, face_routes.hpp). The kernel
// that computes a face cell also stores it into the neighbour's halo of
// the time level the neighbour reads next (NeighbourArrays). Counts on
// the device order the ranks: a rank raises its count in each linked
// neighbour once its update has stored the faces (signal), and before its
// next update waits until every linked neighbour's count has reached its
// own (await). Waiting for the neighbours' last step also keeps a fast
// rank from storing into a halo that a slow one still reads. Both are
// launched on a stream and keep every value on the device, so a step that
// uses them replays as one graph.
//
// One type per way of reaching a neighbour's memory: PeerLinks
// (peer_links.hpp, --comm peer) maps it through IPC handles on GPUs and an
// MPI shared-memory window on the HOST back-end. Adding one is its own
// file, its CommMode (comm_mode.hpp), its case in make_link_path
// (paths.cpp) and its test; the exchange and the step are not edited.
#pragma once

#include "comm_mode.hpp"
#include "halo_path.hpp"
#include "layout.hpp"
#include "node_memory.hpp"
#include "stream.hpp"

#include <mpi.h>

#include <array>
#include <cstddef>
#include <memory>
#include <vector>

namespace stencil {

class LinkPath {
public:
    // A face this rank sends towards `direction` (decomposition.hpp's
    // index) to `neighbour`, a rank of the Cartesian communicator other than
    // this one.
    struct Face {
        int direction = 0, neighbour = 0;
    };
    // Where a linked face's cells land: the neighbour's layout and the
    // origin of each of its two time-level arrays, mapped into this
    // process and indexed as this rank's (the one p(t_n+1) is written into).
    struct NeighbourArrays {
        Layout layout;
        std::array<char*, 2> origin{};
    };

    virtual ~LinkPath() = default;
    // Whether face f (an index into the faces given) leads to a rank this
    // path reaches, and where its cells land there.
    virtual bool linked(std::size_t f) const = 0;
    virtual const NeighbourArrays& neighbour_arrays(std::size_t f) const = 0;
    // On `stream`: hold it until every linked neighbour has finished as
    // many steps as this rank (before the update); one more step finished,
    // told to every linked neighbour (after the update and the source).
    virtual void await(Stream& stream) = 0;
    virtual void signal(Stream& stream) = 0;
    // The counts back to zero. Collective over the Cartesian communicator:
    // the caller has every rank's streams idle, and a barrier before and
    // after.
    virtual void restart_counts() = 0;
};

// What a link path maps of this rank for its neighbours: the node's
// communicator (split_node) and the segment holding both time levels,
// whose origins lie `origin_bytes` into it.
struct LinkMemory {
    MPI_Comm node = MPI_COMM_NULL;
    const NodeSegment* fields = nullptr;
    std::array<std::size_t, 2> origin_bytes{};
};

// Whether this build can take the link path `mode` (links_node(mode)): ""
// and why it was taken, or one line saying why not (halo_path.hpp).
PathRequest request_link_path(CommMode mode);

// The link path for `mode` (links_node(mode)), over `faces` with `layout`:
// collective over `cart`. Faces it cannot reach are left unlinked.
std::unique_ptr<LinkPath> make_link_path(CommMode mode, MPI_Comm cart, const LinkMemory& memory,
                                         const std::vector<LinkPath::Face>& faces,
                                         const Layout& layout);

} // namespace stencil
