// A timing trial of the run's own steps, for the choices `auto` makes in
// the warm-up (--overlap, step/overlap.hpp; --halo-depth, step/halo_depth.hpp):
// a fresh simulation of the same problem with one setting changed, timed in
// windows that every rank starts together, and the rule that compares two.
#pragma once

#include "config/model.hpp"
#include "config/options.hpp"
#include "config/run_context.hpp"
#include "config/run_plan.hpp"

#include <mpi.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace stencil {

class Simulation;

// Windows per trial, and timed steps per window: whole cycles at every
// depth tried (the graph period is 4 steps at k = 1, 2 and 4), repeated
// until a window lasts kTrialWindowMs. Windows of 48 steps of 0.04 ms (128^3
// per GPU on four H200s) were 2 ms long, and one in three of them doubled
// (a hiccup of the host or the library's progress thread): the trials could
// not tell 10% apart.
inline constexpr int kTrialWindows = 5;
inline constexpr int kTrialSteps = 48;
inline constexpr double kTrialWindowMs = 20;
inline constexpr int kMaxTrialRepeats = 20; // at most 960 steps a window
// Untimed steps before a trial's windows: every graph of a cycle is
// captured by then (the graph period is 4 steps at k = 1, 2 and 4).
inline constexpr int kTrialWarmup = 8;

struct Trial {
    double step_ms = 0;             // the median window's step (the slowest rank's mean)
    double spread = 0;              // the middle windows' range over the median (window_spread)
    std::vector<double> windows_ms; // each window's step, in the order timed
    int window_steps = 0;           // timed steps per window
    double exposed = 0;             // the largest share of a step not spent in the update kernels
    bool fused_pack = false;        // whether the trial's boundary kernels stored the faces
};

// Collective over `comm`: `windows` windows of `steps` timed steps, each
// started by every rank together (Simulation::start_window); per window the
// slowest rank's mean step in ms, every rank getting the same.
std::vector<double> aligned_windows(Simulation& sim, MPI_Comm comm, int windows, int steps);

// How many times kTrialSteps a window holds for steps of `step_ms` to last
// kTrialWindowMs: 1 to kMaxTrialRepeats.
int window_repeats(double step_ms);

// The median of the windows' steps, and their spread: the range of the
// middle half (of 5 windows, the 2nd to the 4th fastest) over the median,
// so that one window disturbed by something else on the node does not
// count, but a trial that cannot tell 2% apart says so.
double median_ms(std::vector<double> windows_ms);
double window_spread(std::vector<double> windows_ms);

// Collective over MPI_COMM_WORLD: `plan` (its fused_pack included) at halo
// depth `depth` with overlap `overlap`, warmed up, one window of kTrialSteps
// to size the others, then kTrialWindows aligned windows of at least
// kTrialWindowMs each; every rank gets the same answer.
Trial time_trial(const RunContext& run, int depth, bool overlap);

// How an alternative's trial compares with the default's.
enum class TrialVerdict {
    KeepDefault,    // the alternative is not faster by the tolerance
    WithinSpread,   // faster by the tolerance, but not by more than the trials' spread
    TakeAlternative // faster by more than both
};
TrialVerdict compare_trials(const Trial& preferred, const Trial& alternative, double tolerance);

// Slow simulations: through NCCL on 4 H100s one simulation in three or four
// ran every step up to 1.6x slower than another of the same setting
// (docs/data/nccl-spells-2026-11-28), and one that times the preferred
// setting but not the alternative would pick the alternative for nothing.
// A slow simulation only ever slows a trial. So where the alternative
// wins, the preferred setting is timed once more on a fresh simulation
// (`time_preferred`), the faster of its two trials stands in `preferred`,
// and the verdict is taken again. `again`: the second trial, for the
// report, where one was timed.
TrialVerdict compare_with_second_look(Trial& preferred, const Trial& alternative, double tolerance,
                                      const std::function<Trial()>& time_preferred,
                                      std::optional<Trial>& again);

// The trial as the report lists it: what was timed and how fast. Its
// setting names the overlap and the depth ("overlap on, depth 1"), and the
// pack where one was chosen (`pack`: "fused" or "separate", else "").
TrialRecord trial_record(bool overlap, int depth, const std::string& pack, const Trial& trial);

// The same for a setting timed a second time (compare_with_second_look).
TrialRecord second_record(bool overlap, int depth, const std::string& pack, const Trial& trial);

} // namespace stencil
