// The time loop around a Simulation: warm-up, timed steps, NaN/Inf checks,
// the progress line, injected faults, and the outputs taken along the way.
#pragma once

#include "model.hpp"
#include "options.hpp"
#include "outputs.hpp"
#include "simulation.hpp"

namespace stencil {

struct DriveResult {
    bool stable = true;
    int bad_step = -1, bad_rank = -1; // where a NaN/Inf was first seen
};

// Runs c.warmup untimed steps, undoes them (Simulation::rewind), then runs
// c.steps timed steps with the outputs (collective).
DriveResult drive(Simulation& sim, const Config& c, const Physics& physics, Outputs& outputs);

} // namespace stencil
