// --halo-depth: how deep a run's halos are, and why. A halo k*R deep is
// exchanged once every k steps; in between, each rank updates a ring of its
// neighbours' cells again, so it sends k times fewer (larger) messages for
// a few per cent more arithmetic. That wins where message latency, not
// bandwidth or arithmetic, bounds the step: small boxes per GPU.
#pragma once

#include "config/model.hpp"
#include "config/options.hpp"
#include "config/run_context.hpp"
#include "config/run_plan.hpp"
#include "step/trial.hpp"

#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace stencil {

struct HaloDepthChoice {
    int depth = 1;
    std::string reason;              // for the report
    std::vector<TrialRecord> trials; // each depth timed here, for the report
    double step_ms = 0;              // the chosen depth's trial, where one was timed
};

// The depths `auto` tries, where every rank is at least k*R cells thick.
inline constexpr int kAutoDepths[] = {1, 2, 4};
// At k = 1, an exchange this little of the step exposed leaves nothing for
// deeper halos to win: auto keeps k = 1 without trying them.
inline constexpr double kHiddenEnough = 0.05;
// A deeper halo must be this much faster than a shallower one to be chosen.
inline constexpr double kDepthTolerance = 0.03;

// The rule over trials (depth, trial), in increasing depth: the fastest,
// unless a smaller depth is within kDepthTolerance of it or within the
// trials' spread (compare_trials); `within_spread`, if given, says whether
// the spread kept a smaller depth.
int fastest_depth(const std::vector<std::pair<int, Trial>>& trials, bool* within_spread = nullptr);

// Collective over MPI_COMM_WORLD. An explicit --halo-depth stands. Auto is
// 1 where nothing is exchanged or compute bounds the step (the HOST
// back-end); otherwise it times the run's own steps at k = 1 and, unless
// the exchange is already hidden, at the deeper kAutoDepths that fit, each
// on a fresh simulation of the same problem (the slowest rank's step), with
// the run's overlap. `plan` holds the grids, the halo path and the overlap
// (step/overlap.hpp, chosen first); its depth is not read. Where a deeper
// halo wins, k = 1 is timed once more and the faster of its two trials
// stands (compare_with_second_look: a slow simulation). `at_depth_one`:
// the trial at k = 1 with that overlap, where one was timed already.
HaloDepthChoice choose_halo_depth(const RunContext& run,
                                  const std::optional<Trial>& at_depth_one = std::nullopt);

} // namespace stencil
