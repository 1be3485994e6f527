#include "step/overlap.hpp"

#include "device.hpp"

#include <cstdio>
#include <cstring>

namespace stencil {
namespace {

std::string ms_words(const char* format, double a, double b = 0) {
    char line[96];
    std::snprintf(line, sizeof line, format, a, b);
    return line;
}

// What a verdict adds to the reason where the alternative was faster by
// the tolerance but not by more than the trials' own spread: the default
// stays, and the report says why.
std::string spread_words(TrialVerdict verdict, const Trial& preferred, const Trial& alternative,
                         const char* kept) {
    if (verdict != TrialVerdict::WithinSpread) return {};
    const double gain = 100 * (1 - alternative.step_ms / preferred.step_ms);
    const double spread = 100 * std::max(preferred.spread, alternative.spread);
    char line[128];
    std::snprintf(line, sizeof line, "; %.1f%% apart, within the trials' spread of %.1f%%: %s kept",
                  gain, spread, kept);
    return line;
}

// The on schedule's trial, with --pack auto the faster of fused and
// separate; its reason in `pack_reason`, each trial in `trials`.
Trial time_on(const RunContext& run, int depth, std::string& pack_reason,
              std::vector<TrialRecord>& trials) {
    const Options& c = run.options;
    const RunPlan& plan = run.plan;
    const Physics& physics = run.physics;
    RunPlan p = plan;
    p.fused_pack = c.pack != PackChoice::Separate;
    const Trial on = time_trial({c, p, physics}, depth, true);
    // A link path's update always stores the faces (plan_comm refused separate).
    if (c.pack != PackChoice::Auto || !on.fused_pack || route_plan(c, plan).links_faces()) {
        trials.push_back(trial_record(true, depth, "", on));
        return on;
    }
    trials.push_back(trial_record(true, depth, "fused", on));
    RunPlan separate_plan = p;
    separate_plan.fused_pack = false;
    const Trial separate = time_trial({c, separate_plan, physics}, depth, true);
    trials.push_back(trial_record(true, depth, "separate", separate));
    Trial fused = on;
    std::optional<Trial> again;
    const TrialVerdict verdict = compare_with_second_look(
        fused, separate, kOverlapTolerance,
        [&] {
            return time_trial({c, p, physics}, depth, true);
        },
        again);
    if (again) trials.push_back(second_record(true, depth, "fused", *again));
    pack_reason = ms_words("auto: %.4g ms fused, %.4g ms separate per step with overlap on",
                           fused.step_ms, separate.step_ms) +
                  spread_words(verdict, fused, separate, "fused");
    return verdict == TrialVerdict::TakeAlternative ? separate : fused;
}

// --overlap auto, timed: off first (were a first trial slower, from lazily
// made connections or cold caches, that would favour on, the default
// anyway), then on, and on timed again where off beat it
// (compare_with_second_look).
void time_both(const RunContext& run, int depth, OverlapDecision& d) {
    const Trial off = time_trial(run, depth, false);
    d.trials.push_back(trial_record(false, depth, "", off));
    Trial on = time_on(run, depth, d.pack_reason, d.trials);
    RunPlan on_plan = run.plan;
    on_plan.fused_pack = on.fused_pack;
    std::optional<Trial> again;
    const TrialVerdict verdict = compare_with_second_look(
        on, off, kOverlapTolerance,
        [&] {
            return time_trial({run.options, on_plan, run.physics}, depth, true);
        },
        again);
    const bool pack_timed = run.options.pack == PackChoice::Auto && depth == 1 &&
                            !route_plan(run.options, run.plan).links_faces();
    if (again)
        d.trials.push_back(second_record(
            true, depth, pack_timed ? (on.fused_pack ? "fused" : "separate") : "", *again));
    d.overlap = verdict != TrialVerdict::TakeAlternative;
    d.fused_pack = on.fused_pack;
    d.reason = ms_words("auto: %.4g ms off, %.4g ms on per step", off.step_ms, on.step_ms);
    if (depth > 1) d.reason += " at k=" + std::to_string(depth);
    d.reason += spread_words(verdict, on, off, "on");
    d.step_ms = (d.overlap ? on : off).step_ms;
    if (depth == 1) d.at_depth_one = d.overlap ? on : off;
}

} // namespace

bool overlap_wins(const Trial& on, const Trial& off) {
    return compare_trials(on, off, kOverlapTolerance) != TrialVerdict::TakeAlternative;
}

OverlapDecision choose_overlap(const RunContext& run) {
    const Options& c = run.options;
    const RunPlan& plan = run.plan;
    OverlapDecision d;
    d.fused_pack = c.pack != PackChoice::Separate;
    if (c.pack == PackChoice::Auto)
        d.pack_reason = "auto: fused; timed against separate only on a GPU with neighbours";
    else
        d.pack_reason = c.pack == PackChoice::Fused ? "--pack fused" : "--pack separate";
    const RoutePlan routes = route_plan(c, plan);
    const bool neighbours = routes.has_neighbours();
    const char* untimed = routes.moves_nothing() ? "--comm none exchanges nothing to hide"
                          : !neighbours          ? "no rank has a neighbour, nothing to hide"
                          : std::strcmp(backend_name(), "HOST") == 0
                              ? "the HOST back-end runs the phases in order"
                              : nullptr;
    const int depth = c.halo_depth > 0 ? c.halo_depth : 1;
    const bool linked = routes.links_faces();
    if (linked) { // the update stores the linked faces: nothing else would
        d.fused_pack = true;
        d.pack_reason =
            std::string("--comm ") + routes.link_name() + ": fused, into the neighbours' halos";
    }
    if (neighbours && routes.every_face_stored()) {
        // Nothing travels: one update a step stores every face where it is
        // read next. Overlap would only split it into an interior and slabs.
        d.overlap = false;
        d.reason = std::string("one kernel a step: every face is ") +
                   (linked ? "a rank's own or linked on its node" : "the rank's own") +
                   ", stored by the update" +
                   (c.overlap == OverlapChoice::On ? " (--overlap on: nothing to hide)" : "");
        return d;
    }
    if (c.overlap == OverlapChoice::Off) {
        d.overlap = false, d.reason = "--overlap off";
    } else if (c.overlap == OverlapChoice::On) {
        d.reason = "--overlap on";
        if (!untimed && !linked && c.pack == PackChoice::Auto && depth == 1) {
            const Trial on = time_on(run, depth, d.pack_reason, d.trials);
            d.fused_pack = on.fused_pack, d.at_depth_one = on, d.step_ms = on.step_ms;
        }
    } else if (untimed) {
        d.reason = std::string("auto: kept on, untimed: ") + untimed; // on costs nothing here
    } else {
        time_both(run, depth, d);
    }
    return d;
}

} // namespace stencil
