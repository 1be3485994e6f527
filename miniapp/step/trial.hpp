// A timing trial of the run's own steps, for the choices `auto` makes in
// the warm-up (--overlap, step/overlap.hpp; --halo-depth, step/halo_depth.hpp):
// a fresh simulation of the same problem with one setting changed.
#pragma once

#include "config/model.hpp"
#include "config/options.hpp"
#include "config/run_plan.hpp"

namespace stencil {

struct Trial {
    double step_ms = 0;      // the slowest rank's mean step
    double exposed = 0;      // the largest share of a step not spent in the update kernels
    bool fused_pack = false; // whether the trial's boundary kernels stored the faces
};

// Collective over MPI_COMM_WORLD: `plan` (its fused_pack included) at halo
// depth `depth` with overlap `overlap`, warmed up, then timed; every rank
// gets the same answer.
Trial time_trial(const Options& c, const RunPlan& plan, const Physics& physics, int depth,
                 bool overlap);

} // namespace stencil
