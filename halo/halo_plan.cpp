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
    for (int n = 0; n < 27; ++n) {
        const std::array<int, 3> dir{n % 3 - 1, n / 3 % 3 - 1, n / 9 - 1};
        const int faces = (dir[0] != 0) + (dir[1] != 0) + (dir[2] != 0);
        if (faces == 0 || (depth == 1 && faces > 1)) continue;
        const int peer = d.neighbour_towards(dir);
        if (peer == MPI_PROC_NULL) continue;
        HaloMessage m{dir, peer, peer == d.rank, depth == 1 && dir[2] != 0, {}, 0};
        m.parts.push_back(part(L, dir, 0, depth * radius));
        if (depth > 1) m.parts.push_back(part(L, dir, 1, (depth - 1) * radius));
        for (const HaloPart& p : m.parts)
            m.count += p.send.cells();
        if (m.in_place) m.count = std::size_t(radius) * L.slice; // whole padded planes
        messages.push_back(m);
    }
    return messages;
}

} // namespace stencil
