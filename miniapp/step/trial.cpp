#include "step/trial.hpp"

#include "mpi_util.hpp"
#include "step/simulation.hpp"

#include <algorithm>

namespace stencil {
namespace {

// Untimed steps before a trial's timed ones: every graph of a cycle is
// captured by then (the graph period is 4 steps at k = 1, 2 and 4). 16
// timed steps flipped between k = 1 and 2 at 64^3 on an H100, whose
// 400-step runs differ by 8% (docs/PERFORMANCE.md, "Deep halos").
constexpr int kTrialWarmup = 8;
constexpr int kTrialSteps = 48; // whole cycles at every depth tried

} // namespace

Trial time_trial(const Options& c, const RunPlan& plan, const Physics& physics, int depth,
                 bool overlap) {
    RunPlan trial = plan;
    trial.halo_depth = depth;
    trial.overlap = overlap;
    trial.aids = TestAids{}; // test aid: trials plant nothing
    const auto sim = make_simulation(c, trial, physics, MPI_COMM_WORLD);
    sim->run(kTrialWarmup, false);
    sim->run(kTrialSteps, true);
    const PhaseTotals& p = sim->totals();
    const double step = p.step / p.steps;
    const double kernels = p.sampled ? (p.interior + p.boundary) / p.sampled : step;
    double mine[2] = {step, step > 0 ? std::max(0.0, 1.0 - kernels / step) : 0}, worst[2];
    MPI_CHECK(MPI_Allreduce(mine, worst, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD));
    return {worst[0], worst[1], sim->fused_pack()};
}

} // namespace stencil
