// The trials' windows start together (run under mpirun with 2 ranks): a
// rank that reaches a trial late must not lengthen any rank's window, on
// the HOST back-end as on a GPU. No clock is asserted against a target: the
// windows are compared with the planted delay, which a window holding it
// would exceed, and which is hundreds of times longer than the windows on
// an idle machine (a loaded runner may stretch them tenfold).
#include "mpi_util.hpp"
#include "step/simulation.hpp"
#include "step/trial.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <mpi.h>
#include <thread>

namespace stencil {
namespace {

constexpr double kDelayMs = 2000;

Options two_rank_problem() {
    Options c;
    c.grid = {24, 20, 28};
    c.radius = 2;
    c.warmup = 0;
    c.comm = CommChoice::of(CommMode::GpuAware); // host memory on HOST: what the MPI library takes
    return c;
}

RunPlan split_along_z(const Options& c) {
    RunPlan plan;
    plan.grid = c.grid;
    plan.procs = {1, 1, world_size()};
    plan.comm_mode = CommMode::GpuAware;
    return plan;
}

void hold_back_last_rank() {
    if (world_rank() == world_size() - 1)
        std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(kDelayMs));
}

TEST(TrialWindows, ALateRankLengthensNoWindow) {
    ASSERT_GE(world_size(), 2) << "run under mpirun with 2 ranks";
    const Options c = two_rank_problem();
    Physics physics;
    ASSERT_EQ(resolve_physics(c, c.grid, physics), "");
    const auto sim = make_simulation({c, split_along_z(c), physics}, MPI_COMM_WORLD);
    sim->run(2, false);
    hold_back_last_rank(); // the first rank's next step waits for its halos
    const std::vector<double> windows = aligned_windows(*sim, MPI_COMM_WORLD, 3, 8);
    ASSERT_EQ(windows.size(), 3u);
    for (const double ms : windows)
        EXPECT_LT(ms * 8, kDelayMs / 2) << "a window holds the late rank's wait";
}

TEST(TrialWindows, EveryRankGetsTheSameTrial) {
    ASSERT_GE(world_size(), 2) << "run under mpirun with 2 ranks";
    const Options c = two_rank_problem();
    Physics physics;
    ASSERT_EQ(resolve_physics(c, c.grid, physics), "");
    const Trial trial = time_trial({c, split_along_z(c), physics}, 1, true);
    ASSERT_EQ(trial.windows_ms.size(), std::size_t(kTrialWindows));
    EXPECT_EQ(trial.step_ms, median_ms(trial.windows_ms));
    EXPECT_EQ(trial.spread, window_spread(trial.windows_ms));
    double mine[2] = {trial.step_ms, trial.spread}, lowest[2], highest[2];
    MPI_Allreduce(mine, lowest, 2, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(mine, highest, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    EXPECT_EQ(lowest[0], highest[0]) << "the ranks disagree on the trial's step";
    EXPECT_EQ(lowest[1], highest[1]) << "the ranks disagree on the trial's spread";
}

} // namespace
} // namespace stencil
