#include "config/check_reach.hpp"

#include <algorithm>
#include <vector>

namespace stencil {
namespace {

// Steps until a halo moved across a boundary `cells` cells from the source
// holds the signal: the source enters at step 1, then R cells a step; a
// planted drop-face 19 cells away at R = 4 showed from step 6, not 5.
int steps_over(int cells, int radius) {
    return (cells + radius - 1) / radius + 1;
}

} // namespace

CheckReach check_reach(const RunPlan& plan, const std::array<bool, 3>& periodic,
                       const std::array<int, 3>& source, int radius, int steps) {
    CheckReach reach;
    for (int a = 0; a < 3; ++a) {
        const int n = plan.grid[a], parts = plan.procs[a], s = source[a];
        std::vector<int> needed;
        // Between cells b - 1 and b, for each split of the axis.
        for (int p = 1, b = 0; p < parts; ++p) {
            b += n / parts + (p - 1 < n % parts ? 1 : 0);
            needed.push_back(steps_over(s < b ? b - s : s - b + 1, radius));
        }
        // The wrap of a periodic axis: from cell 0 to cell n - 1.
        if (periodic[a]) needed.push_back(steps_over(std::min(s + 1, n - s), radius));
        for (const int k : needed) {
            ++reach.boundaries;
            reach.reached += k <= steps;
            reach.steps_for_all = std::max(reach.steps_for_all, k);
        }
    }
    return reach;
}

} // namespace stencil
