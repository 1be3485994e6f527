#include "step/overlap.hpp"

#include "device.hpp"

#include <cstdio>
#include <cstring>

namespace stencil {

bool overlap_wins(double on_ms, double off_ms) {
    return !(off_ms < on_ms * (1 - kOverlapTolerance));
}

OverlapDecision choose_overlap(const Options& c, const RunPlan& plan, const Physics& physics) {
    if (c.overlap == OverlapChoice::On) return {true, "--overlap on", {}};
    if (c.overlap == OverlapChoice::Off) return {false, "--overlap off", {}};
    bool neighbours = false;
    for (int a = 0; a < 3; ++a)
        neighbours = neighbours || plan.procs[a] > 1 || c.periodic[a];
    if (plan.comm_mode == CommMode::None)
        return {true, "auto: --comm none exchanges nothing to hide", {}};
    if (!neighbours) return {true, "auto: no rank has a neighbour, nothing to hide", {}};
    if (std::strcmp(backend_name(), "HOST") == 0)
        return {true, "auto: the HOST back-end runs the phases in order", {}};

    // Off first: were a first trial slower (lazily made connections,
    // cold caches), that would favour on, the default anyway.
    const int depth = c.halo_depth > 0 ? c.halo_depth : 1;
    const Trial off = time_trial(c, plan, physics, depth, false);
    const Trial on = time_trial(c, plan, physics, depth, true);
    const bool overlap = overlap_wins(on.step_ms, off.step_ms);
    char line[96];
    std::snprintf(line, sizeof line, "auto: %.4g ms off, %.4g ms on per step", off.step_ms,
                  on.step_ms);
    OverlapDecision decision{overlap, line, {}};
    if (depth > 1) decision.reason += " at k=" + std::to_string(depth);
    if (depth == 1) decision.at_depth_one = overlap ? on : off;
    return decision;
}

} // namespace stencil
