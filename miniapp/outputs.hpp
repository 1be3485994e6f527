// What a run leaves behind besides timings: wavefield snapshots (collective
// MPI-IO into one raw float32 file each, with a JSON sidecar), PNG slices,
// and receiver traces with a shot-gather image.
#pragma once

#include "model.hpp"
#include "options.hpp"
#include "simulation.hpp"

#include <string>
#include <vector>

namespace stencil {

// Collective, before the run: creates the output folder if outputs are
// asked for, reads the receivers (rank 0 reads, all get them) into
// c.receivers and checks that every receiver and the slice lie inside the
// grid. Returns an empty string or one line saying what is wrong.
std::string prepare_outputs(Config& c);

class Outputs {
public:
    // Collective. Places each receiver on the rank that owns its cell, so a
    // receiver on a rank boundary is recorded exactly once.
    Outputs(const Config& c, const Physics& physics, Simulation& sim);
    ~Outputs();
    Outputs(const Outputs&) = delete;
    Outputs& operator=(const Outputs&) = delete;

    // After step n (1-based; collective): receivers every step, snapshots
    // and slices every snapshot_every steps.
    void after_step(int n);
    // At the end (collective): traces, shot gather, the last slice.
    void finish(int steps_done);

private:
    struct State;
    std::unique_ptr<State> state_;
};

} // namespace stencil
