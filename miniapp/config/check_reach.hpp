// What --check can see: a halo exchanged before the wave arrives holds
// zeros either way, so a bug in how it is moved shows only at the rank
// boundaries the wave has reached. A star stencil of radius R carries the
// source's signal at most R cells along one axis per step.
#pragma once

#include "config/model.hpp"
#include "config/run_plan.hpp"

#include <array>

namespace stencil {

struct CheckReach {
    int boundaries = 0;    // rank faces: each rank's halo from each neighbour (itself
                           // across a periodic axis it is alone along)
    int reached = 0;       // of them, holding the signal within the run's steps
    int steps_for_all = 0; // the steps after which every one does
};

// The step from which a halo whose nearest cell is `cells` away from the
// source along each axis holds the source's signal (radius `radius`).
int steps_to_reach(const std::array<int, 3>& cells, int radius);

// The rank faces of `plan`'s decomposition (the split as decompose() makes
// it: the remainder to the first ranks) whose halo holds the signal of a
// source at `source` within `steps` steps of radius `radius`.
CheckReach check_reach(const RunPlan& plan, const std::array<bool, 3>& periodic,
                       const std::array<int, 3>& source, int radius, int steps);

} // namespace stencil
