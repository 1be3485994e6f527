// The mini-app's command line: what the user typed, parsed once and not
// changed after (what the run decides from it is the RunPlan, run_plan.hpp).
#pragma once

#include "stencil.hpp"
#include "testing/test_aids.hpp"

#include <array>
#include <string>
#include <vector>

#include "comm_mode.hpp"

namespace stencil {

// --comm: auto, or one halo path by its name (halo/comm_mode.hpp).
struct CommChoice {
    bool automatic = true;
    CommMode mode = CommMode::GpuAware; // where not automatic
    static CommChoice of(CommMode m) { return {false, m}; }
    bool is(CommMode m) const { return !automatic && mode == m; }
};
enum class ModelKind { Constant, Layered, File };
// --graphs: replay each step's device work as captured graphs. Auto: on
// where the build has them and they measured faster (simulation.cpp).
enum class GraphChoice { Auto, On, Off };
// --overlap: the interior kernel while the halos travel. Auto: chosen per
// run by timing both (step/overlap.hpp, RunPlan::overlap).
enum class OverlapChoice { Auto, On, Off };
// --pack: the next exchange's faces stored by the boundary kernels (fused)
// or by a pack launch (separate). Auto: timed with the overlap's trials.
enum class PackChoice { Auto, Fused, Separate };
// --trace-format: the receiver traces as a raw file (traces.bin), as SEG-Y
// (traces.sgy, outputs/segy.hpp), or both.
enum class TraceFormat { Raw, Segy, Both };
// --output-format: each snapshot as a raw file (MPI-IO) or as HDF5 (one
// dataset, written collectively; io/hdf5_file.hpp), where the build has it.
enum class OutputFormat { Raw, Hdf5 };

// The deepest halo, in multiples of R: k*R <= 64 cells keeps a layout's
// front padding within one 64-element line.
constexpr int kMaxHaloDepth = 8;

struct Options {
    std::array<int, 3> grid{0, 0, 0};  // --grid: global cells (RunPlan::grid is the run's)
    std::array<int, 3> local{0, 0, 0}; // --local: cells per rank (weak scaling)
    std::array<int, 3> procs{0, 0, 0}; // 0,0,0: MPI_Dims_create chooses
    int radius = 4;
    Precision precision = Precision::FP32; // --precision
    int steps = 100;
    // One step of each of the 32 graphs a step replays (halo/
    // halo_exchange.hpp, kHaloTimingSlots) at halo depths 1, 2, 4 and 8:
    // each is captured in the warm-up, not in a timed step.
    int warmup = 32;
    CommChoice comm;
    OverlapChoice overlap = OverlapChoice::Auto;
    PackChoice pack = PackChoice::Auto;
    // --halo-depth: k, a halo k*R deep exchanged once every k steps; 0:
    // auto, chosen per run (step/halo_depth.hpp, RunPlan::halo_depth).
    int halo_depth = 0;
    // --slab-x: cells of the x boundary slabs; 0: auto (slab_x_depth).
    int slab_x = 0;
    GraphChoice graphs = GraphChoice::Auto;
    // --steps-per-graph: consecutive steps replayed as one graph, at most,
    // where a step is one graph (step/step_chunks.cpp, kStepsPerGraph); 0:
    // auto.
    int steps_per_graph = 0;
    ModelKind model = ModelKind::Constant;
    std::string model_path;                // --model file:PATH: the raw file (model_file.hpp)
    double spacing = 10.0;                 // metres, all directions
    double dt = 0.0;                       // 0: from the CFL limit
    double f0 = 0.0;                       // Hz; 0: 6 cells per minimum wavelength
    std::array<int, 3> source{-1, -1, -1}; // global cell; -1: the centre
    int sponge = 0;                        // cells
    std::array<bool, 3> periodic{false, false, false}; // --periodic: axes that wrap around
    std::string report;                                // JSON path
    std::string timeline; // --timeline: the sampled steps as Chrome trace events (JSON path)
    // Outputs (miniapp/outputs.hpp), written under `output`.
    std::string output = "output";
    bool output_force =
        false; // take a stale lock, replace a finished run's files, skip the space check
    int snapshot_every = 0; // 0: no snapshots
    OutputFormat output_format = OutputFormat::Raw;
    int slice_axis = -1, slice_index = 0; // --slice x|y|z=K; axis -1: none
    std::string receivers_file;
    int line_axis = -1,
        line_index = 0; // --receiver-line z=K (only z: a line along x at the source's y)
    TraceFormat trace_format = TraceFormat::Raw;
    std::string label; // free text carried into the report (e.g. "weak")
    // Checkpoints (miniapp/checkpoint.hpp): every N steps, or every S
    // seconds of wall time (0: none), into checkpoint_dir ("":
    // OUTPUT/checkpoints); restart: "" (none), "latest" or a folder.
    int checkpoint_every = 0;
    double checkpoint_seconds = 0;
    bool checkpoints_on() const { return checkpoint_every > 0 || checkpoint_seconds > 0; }
    std::string checkpoint_dir;
    std::string restart;
    bool checksum = false;
    bool check = false;
    bool print_binding = false;
    bool preflight = false;
    bool quiet = false;
    LaunchShape shape;
    // --tuning: "off" (built-in shapes), "auto" (the default cache path) or
    // a cache file; --tune-seconds: the search's budget for all the boxes.
    std::string tuning_mode = "off";
    double tune_seconds = 20;
    int nan_check_every = 50;      // steps between NaN/Inf checks; 0 = never
    double progress_seconds = 1.0; // seconds between progress lines; 0 = every step
    TestAids aids;                 // --inject-fault, --poison-halo (testing/test_aids.hpp)
    // Options given more than once, one line each ("--steps given twice
    // ('100', then '200'): the last counts"), for input_warnings: job
    // scripts put their defaults before the user's, so the last one wins.
    std::vector<std::string> repeated;
};

// "x,z" for the periodic axes, "none" for none.
std::string periodic_axes(const std::array<bool, 3>& periodic);

// Parses argv. Returns an empty string on success, "help" for --help
// ("help-markdown", "version" for those), else one line describing the
// first problem. Checks everything that needs no
// knowledge of the number of ranks.
std::string parse_options(int argc, char** argv, Options& options);

// --help's text, made from the option table (option_table.hpp).
std::string usage();
// --help-markdown (parse_options says "help-markdown"): docs/OPTIONS.md.
std::string help_markdown();

} // namespace stencil
