// What a run leaves behind besides timings: wavefield snapshots (collective
// MPI-IO into one raw file each, float32 or float64 as the run, with a JSON
// sidecar), PNG slices, and receiver traces with a shot-gather image. Every
// file is complete or absent, every sidecar carries its file's length and
// CRC-32, and a write that fails on any rank ends the run on every rank with
// OutputFailure.
#pragma once

#include "model.hpp"
#include "options.hpp"
#include "output_folder.hpp"
#include "simulation.hpp"

#include <memory>
#include <string>
#include <vector>

namespace stencil {

// Collective, before the run: reads the receivers (rank 0 reads, all get
// them) into c.receivers and checks that every receiver and the slice lie
// inside the grid. If outputs are asked for, rank 0 creates the folder and
// claims it for this run in `lock` (output_folder.hpp): a folder in use, one
// holding a finished run's files, or one without room for what the run will
// write is refused unless --output-force. Returns an empty string or one
// line saying what is wrong.
std::string prepare_outputs(Config& c, OutputFolderLock& lock);

class Outputs {
public:
    // Collective. Places each receiver on the rank that owns its cell, so a
    // receiver on a rank boundary is recorded exactly once.
    Outputs(const Config& c, const Physics& physics, Simulation& sim);
    ~Outputs();
    Outputs(const Outputs&) = delete;
    Outputs& operator=(const Outputs&) = delete;

    // After step n (1-based; collective): receivers every step, snapshots
    // and slices every snapshot_every steps. Throws OutputFailure.
    void after_step(int n);
    // At the end (collective): traces, shot gather, the last slice. Throws
    // OutputFailure.
    void finish(int steps_done);

private:
    struct State;
    std::unique_ptr<State> state_;
};

} // namespace stencil
