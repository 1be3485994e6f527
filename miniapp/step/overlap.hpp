// --overlap: whether the interior kernel runs while the halos travel (on),
// or the exchange comes first and one kernel updates the whole box (off),
// and why. On hides the exchange behind the interior but splits the update
// into an interior and a shell of slabs; off is one launch over the box,
// which can be faster where there is little to hide.
#pragma once

#include "config/model.hpp"
#include "config/options.hpp"
#include "config/run_context.hpp"
#include "config/run_plan.hpp"
#include "step/trial.hpp"

#include <optional>
#include <string>
#include <vector>

namespace stencil {

struct OverlapDecision {
    bool overlap = true;
    std::string reason; // for the report
    // The chosen schedule's trial at halo depth 1, where auto timed one
    // there: choose_halo_depth need not time k = 1 again.
    std::optional<Trial> at_depth_one;
    // --pack: whether the boundary kernels store the faces where the fused
    // pack applies (overlap on, depth 1), and why.
    bool fused_pack = true;
    std::string pack_reason;
    std::vector<TrialRecord> trials; // each trial timed, for the report
    double step_ms = 0;              // the kept schedule's trial, where one was timed
};

// Off must be this much faster than on to be chosen: on is the schedule
// that keeps hiding the exchange as the job grows.
inline constexpr double kOverlapTolerance = 0.02;

// The rule over two trials: off only where it beats on by more than
// kOverlapTolerance and by more than the trials' spread (compare_trials).
bool overlap_wins(const Trial& on, const Trial& off);

// Collective over MPI_COMM_WORLD. An explicit --overlap on|off stands.
// Auto is on where nothing is exchanged (--comm none, no neighbours) or
// the HOST back-end runs the phases in order anyway; otherwise it times
// both schedules on fresh simulations of the same problem at the explicit
// --halo-depth, else at 1, and keeps the faster (overlap_wins). --pack
// auto: where on is timed (or forced on a GPU with neighbours at depth 1)
// and the fused pack ran, on is timed with a separate pack too, and fused
// kept unless separate is faster by kOverlapTolerance and by more than the
// trials' spread. Where the trials cannot tell the two apart, the reason
// says so.
OverlapDecision choose_overlap(const RunContext& run);

} // namespace stencil
