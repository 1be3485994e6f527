#include "config/check_reach.hpp"

#include "decomposition.hpp"

#include <algorithm>
#include <cstdlib>
#include <vector>

namespace stencil {
namespace {

// Cells from `s` to the nearest of [lo, hi) along an axis of `n` cells,
// around the wrap where the axis is periodic.
int distance(int s, int lo, int hi, int n, bool periodic) {
    int best = s < lo ? lo - s : s >= hi ? s - hi + 1 : 0;
    if (periodic)
        for (const int shift : {-n, n})
            best = std::min(best, s + shift < lo    ? lo - s - shift
                                  : s + shift >= hi ? s + shift - hi + 1
                                                    : 0);
    return best;
}

} // namespace

int steps_to_reach(const std::array<int, 3>& cells, int radius) {
    // A star stencil moves the signal up to R cells along one axis per
    // update; p(t_1) holds the source alone, and step k reads the halo of
    // p(t_k-1): a planted drop-face 15 cells past R = 4 showed from step 6.
    int updates = 0;
    for (const int d : cells)
        updates += (d + radius - 1) / radius;
    return updates + 2;
}

CheckReach check_reach(const RunPlan& plan, const std::array<bool, 3>& periodic,
                       const std::array<int, 3>& source, int radius, int steps) {
    CheckReach reach;
    // The first cell of each rank's piece along each axis, as decompose()
    // splits it, and past the last piece the axis's length.
    std::vector<int> first[3];
    for (int a = 0; a < 3; ++a)
        for (int c = 0; c <= plan.procs[a]; ++c)
            first[a].push_back(piece_offset(plan.grid[a], plan.procs[a], c));
    // Every rank's faces towards a neighbour (itself too, across a periodic
    // axis it is alone along): what it receives there is the neighbour's
    // R cells next to the face, across the rank's extent of the other axes.
    for (int i = 0; i < plan.procs[0]; ++i)
        for (int j = 0; j < plan.procs[1]; ++j)
            for (int k = 0; k < plan.procs[2]; ++k) {
                const int c[3] = {i, j, k};
                for (int a = 0; a < 3; ++a)
                    for (const int side : {-1, 1}) {
                        const int n = plan.grid[a];
                        const int lo = first[a][std::size_t(c[a])],
                                  hi = first[a][std::size_t(c[a] + 1)];
                        const bool edge = side < 0 ? lo == 0 : hi == n;
                        if (edge && !periodic[a]) continue; // no neighbour there
                        int from = side < 0 ? lo - radius : hi, to = from + radius;
                        if (from < 0) from += n, to += n;
                        if (from >= n) from -= n, to -= n;
                        std::array<int, 3> d{};
                        for (int b = 0; b < 3; ++b)
                            d[std::size_t(b)] =
                                b == a ? distance(source[a], from, to, n, periodic[a])
                                       : distance(source[b], first[b][std::size_t(c[b])],
                                                  first[b][std::size_t(c[b] + 1)], plan.grid[b],
                                                  periodic[b]);
                        const int needed = steps_to_reach(d, radius);
                        ++reach.boundaries;
                        reach.reached += needed <= steps;
                        reach.steps_for_all = std::max(reach.steps_for_all, needed);
                    }
            }
    return reach;
}

} // namespace stencil
