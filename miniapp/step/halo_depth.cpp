#include "step/halo_depth.hpp"

#include "decomposition.hpp"
#include "device.hpp"
#include "step/trial.hpp"

#include <cstdio>
#include <cstring>

namespace stencil {

int fastest_depth(const std::vector<std::pair<int, double>>& times) {
    int best = times.empty() ? 1 : times.front().first;
    double best_ms = times.empty() ? 0 : times.front().second;
    for (const auto& [depth, ms] : times)
        if (ms < best_ms * (1 - kDepthTolerance)) best = depth, best_ms = ms;
    return best;
}

HaloDepthChoice choose_halo_depth(const Options& c, const RunPlan& plan, const Physics& physics,
                                  const std::optional<Trial>& at_depth_one) {
    const std::array<int, 3>& procs = plan.procs;
    const CommMode mode = plan.comm_mode;
    if (c.halo_depth > 0) return {c.halo_depth, "--halo-depth"};
    bool neighbours = false;
    for (int a = 0; a < 3; ++a)
        neighbours = neighbours || procs[a] > 1 || c.periodic[a];
    if (mode == CommMode::None) return {1, "auto: --comm none exchanges nothing"};
    if (!neighbours) return {1, "auto: no rank has a neighbour"};
    if (std::strcmp(backend_name(), "HOST") == 0)
        return {1, "auto: on the HOST back-end arithmetic, not latency, bounds the step"};

    std::vector<std::pair<int, double>> times;
    std::string measured;
    char line[96];
    for (const int k : kAutoDepths) {
        if (!check_split(plan.grid, procs, k * c.radius, c.periodic).empty()) break;
        const Trial trial =
            k == 1 && at_depth_one ? *at_depth_one : time_trial(c, plan, physics, k, plan.overlap);
        times.emplace_back(k, trial.step_ms);
        std::snprintf(line, sizeof line, "%s%.4g ms at k=%d", measured.empty() ? "" : ", ",
                      trial.step_ms, k);
        measured += line;
        if (k == 1 && trial.exposed < kHiddenEnough) {
            std::snprintf(line, sizeof line, " with %.0f%% of the step outside the kernels",
                          100 * trial.exposed);
            return {1, "auto: " + measured + line};
        }
    }
    if (times.size() == 1) return {1, "auto: " + measured + "; no rank is 2*R cells thick"};
    return {fastest_depth(times), "auto: " + measured + " per step"};
}

} // namespace stencil
