#include "halo_plan.hpp"

namespace stencil {
namespace {

// Along one axis of a box on `layout`: the owned range for 0, and for -1 or
// +1 the `width` owned cells on that side (send) or the halo cells beyond
// them (recv).
void span(const Layout& L, int axis, int dir, int width, bool send, int& lo, int& hi) {
    const int H = L.halo, n = axis == 0 ? L.nx : axis == 1 ? L.ny : L.nz;
    if (dir == 0) {
        lo = H, hi = H + n;
    } else if (dir < 0) {
        lo = send ? H : H - width;
        hi = lo + width;
    } else {
        lo = send ? H + n - width : H + n;
        hi = lo + width;
    }
}

HaloPart part(const Layout& L, const std::array<int, 3>& dir, int level, int width) {
    HaloPart p{level, {}, {}};
    for (const bool send : {true, false}) {
        int lo[3], hi[3];
        for (int a = 0; a < 3; ++a)
            span(L, a, dir[a], width, send, lo[a], hi[a]);
        (send ? p.send : p.recv) = {lo[0], hi[0], lo[1], hi[1], lo[2], hi[2]};
    }
    return p;
}

} // namespace

std::vector<HaloMessage> plan_halo_messages(const Decomposition& d, const Layout& L, int radius,
                                            int depth) {
    std::vector<HaloMessage> messages;
    for (int n = 0; n < kDirections; ++n) {
        const std::array<int, 3> dir = direction_of(n);
        const int axes = (dir[0] != 0) + (dir[1] != 0) + (dir[2] != 0);
        if (axes == 0 || axes > depth) continue;
        const int neighbour = d.neighbour_towards(dir);
        if (neighbour == MPI_PROC_NULL) continue;
        const bool z_face = axes == 1 && dir[2] != 0;
        for (int level = 0; level < (depth > 1 ? 2 : 1); ++level) {
            if (axes > depth - level) continue; // no ring cell that matters reads it
            const int width = (depth - level) * radius;
            // A z face's planes are contiguous: sent whole, in place, unless
            // the interior update writes them during the exchange (p(t_n-1)
            // deeper than R, from k = 3).
            const bool in_place = z_face && (level == 0 || depth == 2);
            const HaloPart p = part(L, dir, level, width);
            const std::size_t count = in_place ? std::size_t(width) * L.slice : p.send.cells();
            if (in_place || messages.empty() || messages.back().dir != dir ||
                messages.back().in_place)
                messages.push_back({dir, neighbour, neighbour == d.rank, in_place, {}, 0});
            messages.back().parts.push_back(p);
            messages.back().count += count;
        }
    }
    return messages;
}

} // namespace stencil
