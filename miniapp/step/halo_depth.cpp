#include "step/halo_depth.hpp"

#include "decomposition.hpp"
#include "device.hpp"
#include "mpi_util.hpp"

#include <cstdio>
#include <cstring>

namespace stencil {
namespace {

// Untimed steps before a trial's timed ones: every graph of a cycle is
// captured by then (the graph period is 4 steps at k = 1, 2 and 4). 16
// timed steps flipped between k = 1 and 2 at 64^3 on an H100, whose
// 400-step runs differ by 8% (docs/PERFORMANCE.md, "Deep halos").
constexpr int kTrialWarmup = 8;
constexpr int kTrialSteps = 48; // whole cycles at every depth tried

struct Trial {
    double step_ms = 0; // the slowest rank's mean step
    double exposed = 0; // the largest share of a step not spent in the update kernels
};

Trial time_depth(const Options& c, const RunPlan& plan, const Physics& physics, int depth) {
    RunPlan trial = plan;
    trial.halo_depth = depth;
    trial.aids = TestAids{}; // test aid: trials plant nothing
    const auto sim = make_simulation(c, trial, physics, MPI_COMM_WORLD);
    sim->run(kTrialWarmup, false);
    sim->run(kTrialSteps, true);
    const PhaseTotals& p = sim->totals();
    const double step = p.step / p.steps;
    const double kernels = p.sampled ? (p.interior + p.boundary) / p.sampled : step;
    double mine[2] = {step, step > 0 ? std::max(0.0, 1.0 - kernels / step) : 0}, worst[2];
    MPI_CHECK(MPI_Allreduce(mine, worst, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD));
    return {worst[0], worst[1]};
}

} // namespace

int fastest_depth(const std::vector<std::pair<int, double>>& times) {
    int best = times.empty() ? 1 : times.front().first;
    double best_ms = times.empty() ? 0 : times.front().second;
    for (const auto& [depth, ms] : times)
        if (ms < best_ms * (1 - kDepthTolerance)) best = depth, best_ms = ms;
    return best;
}

HaloDepthChoice choose_halo_depth(const Options& c, const RunPlan& plan, const Physics& physics) {
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
        const Trial trial = time_depth(c, plan, physics, k);
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
