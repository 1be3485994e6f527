// --comm auto on a node whose GPUs reach each other: the link path (peer:
// faces to ranks on the node stored by the update kernels, one kernel a
// step where every face is there) timed against MPI's halo path on the
// run's own steps, the faster kept, and why.
#pragma once

#include "comm_mode.hpp"
#include "config/run_context.hpp"
#include "config/run_plan.hpp"

#include <string>
#include <vector>

namespace stencil {

struct CommDecision {
    CommMode mode = CommMode::GpuAware;
    std::string reason;              // for the report
    std::vector<TrialRecord> trials; // each path timed, for the report
    double step_ms = 0;              // the kept path's trial, where both were timed
};

// Peer must be this much faster than MPI's path to be chosen.
inline constexpr double kCommTolerance = 0.02;

// Collective over MPI_COMM_WORLD. The plan's path stands unless --comm is
// auto and plan_comm found peer worth a trial (RunPlan::peer_trial): then
// both are timed, MPI's with overlap on (or as --overlap says), peer's as
// it runs (one kernel a step on one node), and peer kept where it is
// faster by kCommTolerance and by more than the trials' spread.
CommDecision choose_comm(const RunContext& run);

} // namespace stencil
