// The time loop around a Simulation: warm-up, timed steps, NaN/Inf checks,
// the progress line, injected faults, and the outputs taken along the way.
#pragma once

#include "config/model.hpp"
#include "config/options.hpp"
#include "config/run_context.hpp"
#include "config/run_plan.hpp"
#include "outputs/outputs.hpp"
#include "step/simulation.hpp"

#include <string>

namespace stencil {

struct DriveResult {
    bool stable = true;
    int bad_step = -1, bad_rank = -1; // where a NaN/Inf was first seen
    std::string refused;              // --restart could not continue: why (one line)
    int steps_run = 0;                // by this run (a restart's first is the checkpoint's + 1)
    int checkpoints = 0;              // written by this run
    double checkpoint_seconds = 0;    // their total wall time (rank 0's; collective writes)
    double checkpoint_bytes = 0;      // their total size
    // Stopped by a signal (stop_request.hpp) after step stop_step; the
    // checkpoint written then, if checkpoints are on ("" if not).
    bool stopped = false;
    int stop_step = 0;
    std::string stop_signal, checkpoint;
};

// Runs c.warmup untimed steps, undoes them (Simulation::rewind), continues
// from a checkpoint with --restart, then runs the timed steps up to
// c.steps with the outputs and checkpoints (collective).
DriveResult drive(Simulation& sim, const RunContext& run, Outputs& outputs);

} // namespace stencil
