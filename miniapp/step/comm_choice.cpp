#include "step/comm_choice.hpp"

#include "step/trial.hpp"

#include <cstdio>

namespace stencil {
namespace {

TrialRecord comm_record(CommMode mode, bool overlap, const Trial& trial) {
    TrialRecord record = trial_record(overlap, 1, "", trial);
    record.setting = std::string(comm_mode_name(mode)) + ", " + record.setting;
    return record;
}

} // namespace

CommDecision choose_comm(const RunContext& run) {
    const Options& c = run.options;
    const RunPlan& plan = run.plan;
    CommDecision d{plan.comm_mode, plan.comm_reason, {}};
    if (plan.peer_trial.empty()) return d;
    // MPI's step as --overlap asks, else overlap on: the schedule that
    // hides the exchange. Peer on one node has nothing to hide.
    const bool mpi_overlap = c.overlap != OverlapChoice::Off;
    const Trial mpi = time_trial(run, 1, mpi_overlap);
    d.trials.push_back(comm_record(plan.comm_mode, mpi_overlap, mpi));
    RunPlan peer_plan = plan;
    peer_plan.comm_mode = CommMode::Peer;
    peer_plan.fused_pack = true;
    const bool peer_overlap =
        !route_plan(c, peer_plan).every_face_stored() && c.overlap != OverlapChoice::Off;
    const Trial peer = time_trial({c, peer_plan, run.physics}, 1, peer_overlap);
    d.trials.push_back(comm_record(CommMode::Peer, peer_overlap, peer));
    const TrialVerdict verdict = compare_trials(mpi, peer, kCommTolerance);
    const bool take_peer = verdict == TrialVerdict::TakeAlternative;
    const char* mpi_name = comm_mode_name(plan.comm_mode);
    const Trial& kept = take_peer ? peer : mpi;
    const Trial& other = take_peer ? mpi : peer;
    char line[192];
    std::snprintf(
        line, sizeof line, "auto: %s, %.4g ms a step against %.4g ms through %s%s",
        take_peer ? "peer" : mpi_name, kept.step_ms, other.step_ms, take_peer ? mpi_name : "peer",
        verdict == TrialVerdict::WithinSpread ? " (peer faster, within the trials' spread: kept)"
                                              : "");
    d.reason = line;
    d.step_ms = kept.step_ms;
    if (take_peer) d.mode = CommMode::Peer;
    return d;
}

} // namespace stencil
