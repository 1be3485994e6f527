// Checkpoints: what a bit-identical continuation of a run needs, written
// the way every output is, and read back on any rank count.
//
// A checkpoint is a folder DIR/step_NNNNNN holding both time levels as
// global raw files (p.raw: p(t_n), p_prev.raw: p(t_{n-1}); collective MPI-IO,
// field_file.hpp), the receiver traces so far (traces.bin, receiver-major,
// if the run records any) and checkpoint.json, written last: the step, the
// files' lengths and CRC-32s, everything in the run's configuration that
// changes its result or its outputs, the run's settings by their CRC-32 and
// the process that wrote it, all sealed by a CRC-32 of its own text). It is
// assembled under step_NNNNNN.partial and renamed when complete; the two
// newest of the run's settings are kept (checkpoint_identity.hpp). The
// files are global, so a run may continue on another rank count or
// decomposition.
#pragma once

#include "config/model.hpp"
#include "config/options.hpp"
#include "config/run_context.hpp"
#include "config/run_plan.hpp"
#include "io/output_folder.hpp"
#include "outputs/outputs.hpp"
#include "step/simulation.hpp"

#include <string>
#include <vector>

namespace stencil {

// Where this run's checkpoints go: --checkpoint-dir, else OUTPUT/checkpoints.
std::string checkpoint_folder(const Options& c);

// The folder of the checkpoint at `step`.
std::string checkpoint_path(const Options& c, int step);

// The host copy a checkpoint's levels pass through, kept from one
// checkpoint to the next: a fresh one costs its pages' first touch each
// time (0.35 s of a 512^3 FP32 level on one H100 node).
struct CheckpointStaging {
    std::vector<float> fp32;
    std::vector<double> fp64;
};

// Collective, before step 1, where checkpoints are on: the checkpoint folder
// made and written in, locked for this run by rank 0 in `lock` (as --output
// is: a live run's folder is refused, even with --output-force), with room for the checkpoints, and
// holding no other run's (other settings; without --restart, any complete one): those are refused
// in one line naming the run, or removed with --output-force. A folder the program did not write is
// never touched. "" or one line.
std::string prepare_checkpoint_folder(const RunContext& run, OutputFolderLock& lock);

// Rank 0, after the last step: removes the .partial checkpoints of this
// run's settings that this run or an earlier one of them left.
void remove_stale_checkpoints(const RunContext& run);

// Collective: a checkpoint of `sim` at its current step, with the traces
// `outputs` recorded so far. Throws OutputFailure (one line, on every rank)
// if any part cannot be written.
void write_checkpoint(const Simulation& sim, Outputs& outputs, const RunContext& run,
                      CheckpointStaging& staging);

// Collective: the checkpoint --restart names (DIR, a folder of checkpoints
// or one of them; latest: checkpoint_folder(c)), newest first. One that
// does not verify (missing, truncated, a CRC that differs) is reported in a
// note and the one before it is tried. A configuration that differs from
// this run's is refused, naming the field. checkpoint.json must match its
// own CRC-32 and its folder's step, or the checkpoint does not verify. On success `sim` and
// `outputs` continue from the checkpoint's step (Outputs::resume_at), `step` says which, and "" is
// returned; else one line.
std::string restore_checkpoint(Simulation& sim, Outputs& outputs, const RunContext& run, int& step);

} // namespace stencil
