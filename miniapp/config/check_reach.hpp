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
    int boundaries = 0;    // planes between ranks, and the wrap of each periodic axis
    int reached = 0;       // of them, within the signal's reach after the run's steps
    int steps_for_all = 0; // the steps after which every one is reached
};

// The boundaries of `plan`'s decomposition (the split as decompose() makes
// it: the remainder to the first ranks) that a source at `source` reaches
// in `steps` steps of radius `radius`.
CheckReach check_reach(const RunPlan& plan, const std::array<bool, 3>& periodic,
                       const std::array<int, 3>& source, int radius, int steps);

} // namespace stencil
