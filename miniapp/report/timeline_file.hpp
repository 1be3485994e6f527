// --timeline FILE.json: every rank's sampled steps (step/timeline.hpp) as
// Chrome trace events, the JSON that Perfetto (ui.perfetto.dev) and
// chrome://tracing open: a process per rank, a thread per lane (host,
// compute stream, halo stream), each phase an "X" span.
#pragma once

#include "config/options.hpp"
#include "report/report.hpp"
#include "step/simulation.hpp"

#include <string>

namespace stencil {

// Before step 1, on rank 0: "" or why `file`, the path given to `option`
// (--report, --timeline), cannot take the file the run writes at its end:
// a directory, a folder that is missing or not writable, not a regular
// file, the path of another file the run reads or writes (a model's
// sidecar included), the output folder, or a place inside the checkpoint
// folder.
std::string end_file_problem(const Options& c, const std::string& option, const std::string& file);

// Collective over MPI_COMM_WORLD: one MPI_Gatherv of every rank's spans,
// then rank 0 writes report.options.timeline complete or not at all and,
// on success, sets report.timeline. "" or why not (on rank 0).
std::string write_timeline(const PhaseTimeline& timeline, Report& report);

} // namespace stencil
