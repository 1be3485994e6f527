#include "prepare.hpp"

#include "config/memory_check.hpp"
#include "config/model_file.hpp"
#include "config/warnings.hpp"
#include "mpi_util.hpp"
#include "outputs/outputs.hpp"
#include "report/timeline_file.hpp"
#include "restart/checkpoint.hpp"
#include "restart/stop_request.hpp"
#include "step/comm_choice.hpp"
#include "step/halo_depth.hpp"
#include "step/overlap.hpp"
#include "testing/test_aids.hpp"
#include "thread_team.hpp"

#include <cstdio>
#include <utility>

namespace stencil {
namespace {

// Rank 0 tries the report's and the timeline's paths now rather than after
// an hour of compute; the verdict is broadcast so that every rank refuses
// together.
std::string check_end_files_writable(const Options& c) {
    std::string why;
    if (world_rank() == 0) {
        if (!c.timeline.empty()) why = end_file_problem(c, "--timeline", c.timeline);
        if (why.empty() && !c.report.empty()) why = end_file_problem(c, "--report", c.report);
    }
    return first_problem(MPI_COMM_WORLD, why);
}

// What only the job's rank count shows: a test aid that names a rank
// outside it, or would plant nothing anything could catch, and --check
// where --comm none moves no halo between ranks (one rank keeps its own
// periodic faces, which --check can compare).
std::string check_for_the_job(const Options& c, const TestAids& aids) {
    const bool comm_none = c.comm.is(CommMode::None);
    if (const std::string why = aids.rank_problem(world_size()); !why.empty()) return why;
    if (const std::string why =
            aids.reach_problem({0, c.steps, c.snapshot_every, world_size(), comm_none});
        !why.empty())
        return why;
    if (c.check && comm_none && world_size() > 1)
        return "--check needs a halo exchange; --comm none moves no halos between ranks";
    return {};
}

// The step the run's final setting showed in a trial: the last choice that
// timed it, the depth's, else the schedule's (at the depth the run keeps),
// else the path's (at depth 1); 0 where none did.
double final_setting_trial(const CommDecision& comm, const OverlapDecision& overlap,
                           const HaloDepthChoice& depth) {
    if (depth.step_ms > 0) return depth.step_ms;
    if (overlap.step_ms > 0) return overlap.step_ms;
    return depth.depth == 1 ? comm.step_ms : 0;
}

} // namespace

std::string prepare(const Options& c, Prepared& run, OutputFolderLock& folder_lock,
                    OutputFolderLock& checkpoint_lock) {
    RunPlan& plan = run.plan;
    Physics& physics = run.physics;
    const RunContext context{c, plan, physics}; // the two above, as they are filled in
    const ThreadTeam team = size_thread_team(MPI_COMM_WORLD); // before any OpenMP region
    if (!team.problem.empty()) return team.problem;
    plan.aids = c.aids; // test aid: the run plants what the options ask for
    if (const std::string why = check_for_the_job(c, plan.aids); !why.empty()) return why;
    if (const std::string why = plan_grids(c, world_size(), plan); !why.empty()) return why;
    if (c.slab_x > 0 && c.slab_x < c.radius)
        return "--slab-x " + std::to_string(c.slab_x) + " is narrower than the stencil radius " +
               std::to_string(c.radius) + ": the x slabs must hold the cells that read the halo";
    if (c.model == ModelKind::File)
        if (const std::string why = check_model_file(c, plan, physics.c_min, physics.c_max);
            !why.empty())
            return why;
    if (const std::string why = resolve_physics(c, plan.grid, physics); !why.empty()) return why;
    if (const std::string why = check_end_files_writable(c); !why.empty()) return why;
    if (const std::string why = prepare_outputs(c, plan, physics.dt, folder_lock); !why.empty())
        return why;
    if (const std::string why = prepare_checkpoint_folder(context, checkpoint_lock); !why.empty())
        return why;
    // A second stop signal leaves no lock either.
    remove_on_immediate_exit(folder_lock.path(), checkpoint_lock.path());
    std::vector<std::string> warnings = input_warnings(context);
    if (!team.warning.empty()) warnings.push_back(team.warning);
    print_warnings(warnings);
    run.aware = detect_gpu_aware_mpi();
    run.binding = bind_to_device(MPI_COMM_WORLD); // after MPI_Init, before any allocation
    run.binding.team = team;
    if (const std::string why = ranks_per_node_from_environment(plan.ranks_per_node); !why.empty())
        return why;
    const PeerReach reach = peer_reach(MPI_COMM_WORLD, plan.ranks_per_node); // the GPUs just bound
    if (const std::string why = plan_comm(c, run.aware, reach, plan); !why.empty()) return why;
    if (const std::string why = check_memory(c, plan, run.binding); !why.empty()) return why;
    if (c.print_binding) {
        const std::string table = binding_table(run.binding, MPI_COMM_WORLD);
        if (world_rank() == 0) std::printf("%s", table.c_str());
    }
    // The path first (peer or MPI's, where auto may try peer), then the
    // overlap (at the explicit depth, else 1), then the depth with it.
    CommDecision comm = choose_comm(context);
    plan.comm_mode = comm.mode, plan.comm_reason = std::move(comm.reason);
    plan.trials = std::move(comm.trials);
    OverlapDecision overlap = choose_overlap(context);
    plan.overlap = overlap.overlap, plan.overlap_reason = std::move(overlap.reason);
    plan.fused_pack = overlap.fused_pack, plan.pack_reason = std::move(overlap.pack_reason);
    for (TrialRecord& trial : overlap.trials)
        plan.trials.push_back(std::move(trial));
    HaloDepthChoice depth = choose_halo_depth(context, overlap.at_depth_one);
    plan.halo_depth = depth.depth, plan.halo_depth_reason = depth.reason;
    for (TrialRecord& trial : depth.trials)
        plan.trials.push_back(std::move(trial));
    plan.trial_step_ms = final_setting_trial(comm, overlap, depth);
    return {};
}

} // namespace stencil
