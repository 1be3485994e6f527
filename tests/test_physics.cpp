// Physics sanity of the mini-app on one rank: a wave from a point source
// arrives at distance d at time d/c, and the sponge drains energy.
#include "mpi_util.hpp"
#include "step/simulation.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <mpi.h>

namespace stencil {
namespace {

Options small_problem(int n) {
    Options c;
    c.grid = {n, n, n};
    c.radius = 4;
    c.warmup = 0;
    c.comm = CommChoice::of(CommMode::None); // one rank: nothing to exchange
    return c;
}

// One rank's plan for `c`: its grid whole, nothing to exchange.
RunPlan one_rank(const Options& c) {
    RunPlan plan;
    plan.grid = c.grid;
    plan.comm_mode = CommMode::None;
    return plan;
}

TEST(Physics, PointSourceArrivesAtDistanceOverSpeed) {
    Options c = small_problem(72);
    Physics p;
    ASSERT_EQ(resolve_physics(c, c.grid, p), "");
    const auto simulation = make_simulation({c, one_rank(c), p}, MPI_COMM_SELF);
    Simulation& sim = *simulation;
    const int distance = 20; // cells, along x
    const std::array<int, 3> receiver{p.source[0] + distance, p.source[1], p.source[2]};
    const double expected = p.t0 + distance * c.spacing / p.c_min;
    // Record until well past the expected arrival (and before the boundary's echo returns).
    const int steps = int((expected + 1.0 / p.f0) / p.dt);
    double peak = 0;
    int peak_step = 0;
    for (int n = 1; n <= steps; ++n) {
        sim.run(1, false);
        const double v = std::fabs(sim.value_at(receiver));
        if (v > peak) peak = v, peak_step = n;
    }
    // p(t_n) holds the field after n steps; the source was injected at t_{n-1}.
    const double arrival = (peak_step - 1) * p.dt;
    const double cell_time = c.spacing / p.c_min;
    EXPECT_GT(peak, 0.0);
    EXPECT_NEAR(arrival, expected, cell_time) << "peak at step " << peak_step << ", dt " << p.dt;
}

TEST(Physics, SpongeDrainsEnergyThatRigidWallsKeep) {
    auto late_energy_ratio = [](int sponge) {
        Options c = small_problem(48);
        c.sponge = sponge;
        Physics p;
        resolve_physics(c, c.grid, p);
        const auto simulation = make_simulation({c, one_rank(c), p}, MPI_COMM_SELF);
        Simulation& sim = *simulation;
        // Let the source finish (about 2 t0), then compare energy a few crossings later.
        sim.run(int(2.2 * p.t0 / p.dt), false);
        const double after_source = sim.energy();
        const double crossing = 48 * c.spacing / p.c_min;
        sim.run(int(3 * crossing / p.dt), false);
        return sim.energy() / after_source;
    };
    const double rigid = late_energy_ratio(0), absorbing = late_energy_ratio(10);
    EXPECT_GT(rigid, 0.5) << "without a sponge the closed box keeps its energy";
    EXPECT_LT(absorbing, 0.1) << "the sponge should absorb most of it";
}

// The question users ask of --precision fp64: is single precision good
// enough? For this wave, after the pulse has crossed the box, FP32 and FP64
// agree to a small fraction of the field's peak, and they are not equal
// (the runs really differ in precision).
TEST(Physics, SinglePrecisionTracksDouble) {
    std::vector<double> fields[2];
    for (const Precision precision : {Precision::FP32, Precision::FP64}) {
        Options c = small_problem(40);
        c.precision = precision;
        Physics p;
        ASSERT_EQ(resolve_physics(c, c.grid, p), "");
        const auto sim = make_simulation({c, one_rank(c), p}, MPI_COMM_SELF);
        EXPECT_EQ(sim->precision(), precision);
        sim->run(int(2.5 * p.t0 / p.dt), false);
        fields[precision == Precision::FP64] = sim->gather();
    }
    double peak = 0, difference = 0;
    for (std::size_t n = 0; n < fields[1].size(); ++n) {
        peak = std::max(peak, std::fabs(fields[1][n]));
        difference = std::max(difference, std::fabs(fields[0][n] - fields[1][n]));
    }
    ASSERT_GT(peak, 0.0);
    EXPECT_LT(difference / peak, 1e-4) << "FP32 strays from FP64";
    EXPECT_GT(difference, 0.0) << "FP32 and FP64 gave identical fields: one precision ran twice";
}

} // namespace
} // namespace stencil
