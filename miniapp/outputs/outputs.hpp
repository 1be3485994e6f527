// What a run leaves behind besides timings: wavefield snapshots (collective
// MPI-IO into one raw file each, float32 or float64 as the run, with a JSON
// sidecar), PNG slices, and receiver traces with a shot-gather image. Every
// file is complete or absent, every sidecar carries its file's length and
// CRC-32, and a write that fails on any rank ends the run on every rank with
// OutputFailure.
#pragma once

#include "config/model.hpp"
#include "config/options.hpp"
#include "config/run_context.hpp"
#include "config/run_plan.hpp"
#include "io/field_file.hpp"
#include "io/output_folder.hpp"
#include "io/provenance.hpp"
#include "step/simulation.hpp"

#include <memory>
#include <string>
#include <vector>

namespace stencil {

// Collective, before the run: reads the receivers (rank 0 reads, all get
// them) into plan.receivers and checks that every receiver and the slice
// lie inside plan.grid. If outputs are asked for (or a restart finds a
// record in --output), rank 0 creates the folder and claims it for this run
// in `lock` (output_folder.hpp), naming the run in plan.run_id, and every
// rank learns it in plan.claims_output: a folder in use, one holding a finished run's files, or
// one without room for what the run will write is refused unless
// --output-force; so is a --trace-format whose SEG-Y cannot hold `steps`
// steps of `dt`. Returns an empty string or one line saying what is wrong.
std::string prepare_outputs(const Options& c, RunPlan& plan, double dt, OutputFolderLock& lock);

// Whether the run claims an output folder whatever is there: it writes
// snapshots, slices, traces or checkpoints. A restart claims it also where
// the folder holds a record (prepare_outputs: RunPlan::claims_output), so
// that the record says how the folder's latest run over its field ended,
// even where that run writes no file.
bool claims_output_folder(const Options& c);

// How long the run's output writes took, on rank 0's clock (the writes are
// collective, so every rank waits as long), for the report: a file format
// must not slow a run, and this is where it would show.
struct OutputTimes {
    int snapshots = 0;           // written by this run
    double snapshot_seconds = 0; // all of them: each raw file and what is written beside it
    bool traces = false;         // written at the end
    double trace_seconds = 0;    // gathered to rank 0 and written, with the shot gather
};

class Outputs {
public:
    // Collective. Places each receiver on the rank that owns its cell, so a
    // receiver on a rank boundary is recorded exactly once. `provenance`:
    // this run's own (io/provenance.hpp), which every file written carries.
    Outputs(const RunContext& run, FieldQueries& fields, const Provenance& provenance);
    ~Outputs();
    Outputs(const Outputs&) = delete;
    Outputs& operator=(const Outputs&) = delete;

    // After step n (1-based; collective): receivers every step, snapshots
    // and slices every snapshot_every steps. Throws OutputFailure.
    void after_step(int n);
    // Whether after_step(n) has work: receivers (every step), or a snapshot.
    bool due_after(int n) const;
    // At the end (collective): traces, shot gather, the last slice; the
    // folder's record then says the run is complete. Throws OutputFailure.
    void finish(int steps_done);
    // Rank 0: the folder's record says the run ended otherwise: "stopped"
    // (by a signal; `checkpoint`: the one written at the stop, "" if none)
    // or "failed", after `step`.
    void ended(const char* state, int step, const std::string& checkpoint = {});
    // Rank 0, after the run's checks: the record takes `checked` (the
    // provenance with their verdict); `failed`: this run's own checks
    // failed, which makes the folder a failed run's. A failed check
    // inherited from a checkpoint stays in the provenance of a run that
    // completed; tools/verify-output.py calls either folder failed.
    void checked(const Provenance& checked, bool failed);
    // The provenance of the field as it is now: this run's, and what a
    // restart inherited; rank 0's.
    const Provenance& provenance() const;
    // Rank 0: the record says the run reached `step` (a checkpoint was
    // written there), so a run killed later is known to have got that far.
    void reached(int step);
    // The run that began these outputs (a restart's: the checkpoint's),
    // which checkpoints carry on; rank 0's.
    const std::string& lineage() const;
    const OutputTimes& times() const;

    // For checkpoints (checkpoint.hpp). Collective: the traces recorded so
    // far written to `path` in the run's precision, receiver-major, with
    // their length and CRC-32 in `written` (rank 0). False, and nothing
    // written, if the run has no receivers. Throws OutputFailure.
    bool save_traces_to(const std::string& path, FieldFile& written);
    // Collective: a checkpoint's traces (`path`, checked against `expected`)
    // become every receiver's first `step` samples; "" or why not.
    std::string load_traces(const std::string& path, const FieldFile& expected, int step);
    // Collective, once a restart at `step` of the run `lineage` is chosen:
    // removes from the output folder what that run recorded writing after
    // `step` (snapshots, slices) and its final files (traces, shot gather,
    // the last slice), which this run writes again. What it wrote up to
    // `step` stays: this run would write the same bytes. A folder holding
    // another run's outputs, or files named as outputs that no record
    // lists, is refused: "" or why (every rank gets it). The field inherits
    // `made` (Provenance::inherit): the checkpoint's provenance, with a
    // failed check its outputs' record holds (restart/checkpoint_verdict.hpp).
    std::string resume_at(int step, const std::string& lineage, const Provenance& made);

private:
    struct State;
    std::unique_ptr<State> state_;
    // Collective: rank 0 starts the folder's record (a restart: in resume_at).
    void start_record();
};

} // namespace stencil
