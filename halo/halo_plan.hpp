// What one halo exchange moves, as plain data: a message per neighbour, each
// made of parts (a box of one time level sent, and the box it fills on the
// other side). Pure and host-only, so CI checks it without MPI traffic.
//
// Depth k (a halo k*R deep, one exchange every k steps; docs/ARCHITECTURE.md,
// "Deep halos"): the next k steps update a ring of ghost cells shrinking by
// R per step, so each neighbour gets p(t_n) k*R deep and p(t_n-1) (k-1)*R
// deep (the leapfrog reads p(t_n-1) at every cell the first step updates).
// A star stencil moves along one axis per step, so an owned cell k steps on
// reads p(t_n) outside the interior along at most k axes and p(t_n-1) along
// k-1: depth 1 sends the six faces of p(t_n) (no edge or corner); depth 2
// p(t_n) to faces and edges and p(t_n-1) to faces; from depth 3, p(t_n) to
// all 26 neighbours. What the ring computes beyond those cells, from stale
// halo cells, is never read. Packed parts share one message per neighbour
// direction here; the exchange then sends every packed message to one
// rank as one (HaloExchange, allocate_buffers). A z face goes as whole
// planes of the padded layout, in place, one message per time level, where
// the step does not write them during the exchange: p(t_n) always, p(t_n-1)
// at k = 2 (from k = 3 the interior overwrites planes the send would read,
// so they are packed). Whole planes carry the sender's edge columns too;
// the edge messages, unpacked after every receive, overwrite them.
#pragma once

#include "box.hpp"
#include "decomposition.hpp"
#include "layout.hpp"

#include <array>
#include <cstddef>
#include <vector>

namespace stencil {

struct HaloPart {
    int level; // 0: p(t_n), 1: p(t_n-1)
    Box send;  // owned cells, sent
    Box recv;  // halo cells, filled by the neighbour's matching part
};

struct HaloMessage {
    std::array<int, 3> dir;      // towards the neighbour, each component -1, 0 or 1
    int neighbour;               // its rank in the Cartesian communicator
    bool self;                   // this rank is its own neighbour here (periodic, alone along dir)
    bool in_place;               // whole z planes sent from and received into the field
    std::vector<HaloPart> parts; // in place: one, whose level says which field
    std::size_t count;           // cells in the message
};

// The direction opposite `direction` (both indices, decomposition.hpp):
// what a rank sends towards d lands in its neighbour's halo at opposite(d).
inline constexpr int opposite(int direction) {
    return kDirections - 1 - direction;
}

// The MPI tag of a message sent towards `direction` whose parts start at
// time level `level`. Its neighbour receives it as the message from
// opposite(direction) with that level: one tag per (direction, level), so
// messages match even where one rank is the neighbour on several sides.
inline constexpr int message_tag(int direction, int level) {
    return direction + kDirections * level;
}
// The tag of the one message that carries every packed part between two
// ranks (HaloExchange: the packed messages to one neighbour go together).
inline constexpr int kNeighbourBlockTag = 2 * kDirections;

// The messages of an exchange of `depth` k for stencil radius `radius` on
// `layout` (whose halo is k * radius wide), in the order they are sent: by
// direction index, then level. The message a rank sends towards `dir` fills
// the neighbour's halo at -dir, part by part in the same order and cell order,
// through the neighbour's message towards -dir with the same first level.
std::vector<HaloMessage> plan_halo_messages(const Decomposition& d, const Layout& layout,
                                            int radius, int depth);

} // namespace stencil
