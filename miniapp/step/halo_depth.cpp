#include "step/halo_depth.hpp"

#include "decomposition.hpp"
#include "device.hpp"
#include "step/trial.hpp"

#include <cstdio>
#include <cstring>

namespace stencil {

int fastest_depth(const std::vector<std::pair<int, Trial>>& trials, bool* within_spread) {
    if (within_spread) *within_spread = false;
    if (trials.empty()) return 1;
    const std::pair<int, Trial>* best = &trials.front();
    for (const auto& entry : trials)
        if (compare_trials(best->second, entry.second, kDepthTolerance) ==
            TrialVerdict::TakeAlternative)
            best = &entry;
    // Whether a depth faster than the chosen one by the tolerance was left
    // for the trials' spread alone.
    if (within_spread)
        for (const auto& entry : trials)
            *within_spread =
                *within_spread || compare_trials(best->second, entry.second, kDepthTolerance) ==
                                      TrialVerdict::WithinSpread;
    return best->first;
}

namespace {

// Where a deeper halo won: the second look at k = 1 of every auto choice
// (compare_with_second_look), its trial standing in `trials` where faster.
void look_again_at_depth_one(const RunContext& run, std::vector<std::pair<int, Trial>>& trials,
                             HaloDepthChoice& choice) {
    const bool overlap = run.plan.overlap;
    Trial chosen;
    for (const auto& [k, trial] : trials)
        if (k == choice.depth) chosen = trial;
    std::optional<Trial> again;
    compare_with_second_look(
        trials.front().second, chosen, kDepthTolerance, [&] { return time_trial(run, 1, overlap); },
        again);
    if (!again) return;
    choice.trials.push_back(second_record(overlap, 1, "", *again));
    char line[64];
    std::snprintf(line, sizeof line, ", %.4g ms at k=1 again", again->step_ms);
    choice.reason += line;
}

} // namespace

HaloDepthChoice choose_halo_depth(const RunContext& run, const std::optional<Trial>& at_depth_one) {
    const Options& c = run.options;
    const RunPlan& plan = run.plan;
    const std::array<int, 3>& procs = plan.procs;
    const RoutePlan routes = route_plan(c, plan);
    if (c.halo_depth > 0) return {c.halo_depth, "--halo-depth", {}};
    if (routes.moves_nothing()) return {1, "auto: --comm none exchanges nothing", {}};
    if (routes.links_faces()) return {1, "auto: a link path stores the faces every step", {}};
    if (routes.has_neighbours() && routes.every_face_stored())
        return {1, "auto: one kernel a step stores every face, nothing is exchanged", {}};
    if (!routes.has_neighbours()) return {1, "auto: no rank has a neighbour", {}};
    if (std::strcmp(backend_name(), "HOST") == 0)
        return {1, "auto: on the HOST back-end arithmetic, not latency, bounds the step", {}};

    HaloDepthChoice choice;
    std::vector<std::pair<int, Trial>> trials;
    std::string measured;
    char line[96];
    for (const int k : kAutoDepths) {
        if (!check_split(plan.grid, procs, k * c.radius, c.periodic).empty()) break;
        const bool timed_before = k == 1 && at_depth_one;
        const Trial trial = timed_before ? *at_depth_one : time_trial(run, k, plan.overlap);
        if (!timed_before) choice.trials.push_back(trial_record(plan.overlap, k, "", trial));
        trials.emplace_back(k, trial);
        std::snprintf(line, sizeof line, "%s%.4g ms at k=%d", measured.empty() ? "" : ", ",
                      trial.step_ms, k);
        measured += line;
        if (k == 1 && trial.exposed < kHiddenEnough) {
            choice.step_ms = trial.step_ms;
            std::snprintf(line, sizeof line, " with %.0f%% of the step outside the kernels",
                          100 * trial.exposed);
            choice.reason = "auto: " + measured + line;
            return choice;
        }
    }
    if (trials.size() == 1) {
        choice.step_ms = trials.front().second.step_ms;
        choice.reason = "auto: " + measured + "; no rank is 2*R cells thick";
        return choice;
    }
    bool within_spread = false;
    choice.depth = fastest_depth(trials, &within_spread);
    choice.reason = "auto: " + measured + " per step";
    if (choice.depth != 1) {
        look_again_at_depth_one(run, trials, choice);
        choice.depth = fastest_depth(trials, &within_spread);
    }
    for (const auto& [k, trial] : trials)
        if (k == choice.depth) choice.step_ms = trial.step_ms;
    if (within_spread)
        choice.reason +=
            "; a faster depth was within the trials' spread: k=" + std::to_string(choice.depth) +
            " kept";
    return choice;
}

} // namespace stencil
