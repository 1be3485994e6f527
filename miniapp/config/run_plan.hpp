// What the run decides from the Options and the job before its first step:
// the grids, the halo path and depth (and why), what checking the model
// file found, the receivers, the run's id and the test aids it plants.
// main.cpp builds it in one place (prepare), step by step; the halo-depth
// trials and --check's one-domain reference run changed copies of it.
#pragma once

#include "peer_links.hpp"

#include "comm_mode.hpp"
#include "config/options.hpp"
#include "gpu_aware.hpp"
#include "route_plan.hpp"
#include "testing/test_aids.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace stencil {

// One timing trial of an `auto` choice, as the report lists it
// (step/trial.hpp): the setting timed, the median of its aligned windows'
// steps (the slowest rank's mean) and their spread.
struct TrialRecord {
    std::string setting; // "overlap off, depth 1", "overlap on, depth 1, pack separate"
    double step_ms = 0, spread = 0;
    std::vector<double> windows_ms;
    int window_steps = 0; // timed steps per window
};

struct RunPlan {
    std::array<int, 3> grid{0, 0, 0};  // global cells: --grid, or --local times procs
    std::array<int, 3> procs{1, 1, 1}; // the process grid
    CommMode comm_mode = CommMode::Staged;
    std::string comm_reason; // why this halo path (the report says)
    // Whether every rank of the job is on one node (peer_reach), and, for
    // --comm auto, why the link path may be tried against MPI's ("" where
    // it may not; step/comm_choice.hpp times the two).
    bool one_node = false;
    // Blocks of this many ranks taken as one node (STENCIL_NODE_RANKS, a
    // test aid: testing/test_aids.hpp); 0 keeps the nodes MPI sees.
    int ranks_per_node = 0;
    std::string peer_trial;
    // One exchange of a halo halo_depth*R deep every halo_depth steps
    // (step/halo_depth.hpp), and why (the report says).
    int halo_depth = 1;
    std::string halo_depth_reason;
    // The interior kernel while the halos travel (step/overlap.hpp), and why.
    bool overlap = true;
    std::string overlap_reason;
    // The update that computes the faces also stores them for the next
    // exchange (halo/halo_exchange.hpp, "the fused pack") where it applies,
    // and why (--pack, step/overlap.hpp); off for --check's reference, which
    // must not share the path under test.
    bool fused_pack = true;
    std::string pack_reason;
    std::vector<TrialRecord> trials; // what the auto choices above timed, in order
    // The step the chosen setting showed in its trial (0: none was timed),
    // which the warm-up's speed check expects (step/speed_check.hpp).
    double trial_step_ms = 0;
    // --model file:PATH: its element type (float64, else float32) and its
    // CRC-32, which names the model in checkpoints (model_file.hpp).
    bool model_fp64 = false;
    std::uint32_t model_crc32 = 0;
    std::vector<std::array<int, 3>> receivers; // --receivers' cells (prepare_outputs)
    std::string run_id;                        // names the run in sidecars (prepare_outputs)
    // Whether the run locks --output and keeps its record there
    // (prepare_outputs: outputs::claims_output_folder, or a restart into a
    // folder with a record), which it then updates at its end.
    bool claims_output = false;
    TestAids aids; // planted by this run (test_aids.hpp)
};

// The process grid (--procs, else MPI_Dims_create's for `ranks`) and the
// global grid (--grid, or --local times the process grid) into `plan`,
// with every rank thick enough for R and for a chosen --halo-depth; "" or
// why not.
std::string plan_grids(const Options& o, int ranks, RunPlan& plan);

// The halo path for --comm, and why, into `plan`; "" or why it cannot be
// had. `reach`: whether auto may try the peer path (peer_links.hpp).
std::string plan_comm(const Options& o, const GpuAwareness& aware, const PeerReach& reach,
                      RunPlan& plan);

// The routes the run's faces will take (halo/route_plan.hpp), from its
// halo path, grids and nodes, and whether the update may store faces
// (--pack, a halo depth of 1 where one is chosen): what the halo depth,
// overlap, the fields' memory and the report ask, in place of the path.
RoutePlan route_plan(const Options& o, const RunPlan& plan);

} // namespace stencil
