// halo/ pieces that need no neighbours: uneven splits, the split check,
// what an exchange moves at each halo depth, how GPU-aware MPI is detected,
// the rule that picks a halo depth from measured step times, and what the
// route plan says each path's routes will be.
#include "config/check_reach.hpp"
#include "config/run_plan.hpp"
#include "decomposition.hpp"
#include "gpu_aware.hpp"
#include "halo_plan.hpp"
#include "route_plan.hpp"
#include "step/halo_depth.hpp"
#include "step/overlap.hpp"
#include "step/trial.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <numeric>

namespace stencil {
namespace {

TEST(Decomposition, UnevenSplitsGiveTheRemainderToTheFirstRanks) {
    const int n = 61, parts = 4; // 16, 15, 15, 15
    int total = 0;
    for (int c = 0; c < parts; ++c) {
        EXPECT_EQ(piece_size(n, parts, c), c < 1 ? 16 : 15);
        EXPECT_EQ(piece_offset(n, parts, c), total);
        total += piece_size(n, parts, c);
    }
    EXPECT_EQ(total, n);
}

TEST(Decomposition, SplitCheckNamesTheRadiusLimit) {
    EXPECT_EQ(check_split({64, 64, 64}, {2, 2, 2}, 8), "");
    const std::string why = check_split({64, 64, 30}, {1, 1, 4}, 8);
    EXPECT_NE(why.find("fewer than the radius R=8"), std::string::npos) << why;
    EXPECT_NE(why.find("need at least 32 cells"), std::string::npos) << why;
    // An unsplit direction may be thinner than R.
    EXPECT_EQ(check_split({64, 64, 3}, {2, 2, 1}, 4), "");
}

TEST(Decomposition, OneRankOwnsEverythingAndHasNoNeighbours) {
    const Decomposition d = decompose(MPI_COMM_SELF, {10, 20, 30}, {0, 0, 0});
    EXPECT_EQ(d.local, (std::array<int, 3>{10, 20, 30}));
    for (int a = 0; a < 3; ++a)
        EXPECT_FALSE(d.has_neighbour(a, Low) || d.has_neighbour(a, High));
}

std::size_t cell_index(const Layout& L, int x, int y, int z) {
    return std::size_t(x) + L.px() * (std::size_t(y) + L.py() * z);
}

// How many times the plan's parts of time level `level`, with the interior
// itself, cover each cell of the layout; `cells` counts the parts' cells.
std::vector<int> level_hits(const Layout& L, const std::vector<HaloMessage>& plan, int level,
                            std::size_t& cells) {
    std::vector<int> hits(std::size_t(L.px()) * L.py() * L.pz(), 0);
    auto mark = [&](const Box& b) {
        for (int z = b.z0; z < b.z1; ++z)
            for (int y = b.y0; y < b.y1; ++y)
                for (int x = b.x0; x < b.x1; ++x)
                    ++hits[cell_index(L, x, y, z)];
    };
    mark(L.interior());
    cells = 0;
    for (const HaloMessage& m : plan)
        for (const HaloPart& part : m.parts)
            if (part.level == level) {
                mark(part.recv);
                cells += part.recv.cells();
                EXPECT_EQ(part.send.cells(), part.recv.cells());
            }
    return hits;
}

// At depth k, time level `level` fills every cell of the interior grown by
// (k - level) * R that lies outside the interior along at most k - level
// axes exactly once, and no other cell.
void expect_level_filled_once(const Layout& L, const std::vector<HaloMessage>& plan, int R, int k,
                              int level) {
    const int grow = (k - level) * R;
    std::size_t cells = 0;
    const std::vector<int> hits = level_hits(L, plan, level, cells);
    const Box in = L.interior();
    for (int z = 0; z < L.pz(); ++z)
        for (int y = 0; y < L.py(); ++y)
            for (int x = 0; x < L.px(); ++x) {
                const bool grown = x >= in.x0 - grow && x < in.x1 + grow && y >= in.y0 - grow &&
                                   y < in.y1 + grow && z >= in.z0 - grow && z < in.z1 + grow;
                // Cells outside the interior along more axes than
                // the steps left to read them are never needed.
                const int outside = (x < in.x0 || x >= in.x1) + (y < in.y0 || y >= in.y1) +
                                    (z < in.z0 || z >= in.z1);
                const int want = grown && outside <= k - level ? 1 : 0;
                ASSERT_EQ(hits[cell_index(L, x, y, z)], want)
                    << "R=" << R << " k=" << k << " level " << level << " cell " << x << "," << y
                    << "," << z;
            }
    EXPECT_GT(cells, 0u);
}

// The opposite message of the same level sends what each message receives,
// part by part; in place, as many whole planes.
void expect_opposites_match(const std::vector<HaloMessage>& plan) {
    for (const HaloMessage& m : plan) {
        EXPECT_TRUE(m.self);
        int opposites = 0;
        for (const HaloMessage& o : plan)
            if (direction_index(o.dir) == opposite(direction_index(m.dir)) &&
                o.parts[0].level == m.parts[0].level) {
                ++opposites;
                ASSERT_EQ(o.parts.size(), m.parts.size());
                EXPECT_EQ(o.count, m.count);
                for (std::size_t p = 0; p < m.parts.size(); ++p)
                    EXPECT_EQ(o.parts[p].send.cells(), m.parts[p].recv.cells());
            }
        EXPECT_EQ(opposites, 1);
    }
}

// One rank, periodic along every axis, is its own neighbour in every
// direction: its exchange fills every halo cell it will read. At depth k
// every cell of the interior grown by k*R (p) or (k-1)*R (p at the step
// before) that lies outside the interior along at most k (k-1) axes must be
// filled exactly once, by the interior itself or one message's part, and
// each part must receive what the opposite message sends.
TEST(HaloPlan, DeepMessagesFillTheGrownBoxExactlyOnceEdgesAndCornersIncluded) {
    const Decomposition d = decompose(MPI_COMM_SELF, {13, 11, 9}, {1, 1, 1}, {true, true, true});
    for (const int R : {1, 2, 3})
        for (const int k : {1, 2, 3}) {
            const Layout L(13, 11, 9, k * R);
            const std::vector<HaloMessage> plan = plan_halo_messages(d, L, R, k);
            // Depth 1: six faces. Depth 2: faces (z faces one message per
            // time level, in place) and edges (p alone). From 3: all 26, the
            // z faces' levels again apart.
            ASSERT_EQ(plan.size(), k == 1 ? 6u : k == 2 ? 20u : 28u) << "R=" << R << " k=" << k;
            for (const HaloMessage& m : plan)
                EXPECT_EQ(m.in_place,
                          m.dir[0] == 0 && m.dir[1] == 0 && (m.parts[0].level == 0 || k == 2));
            for (int level = 0; level < (k == 1 ? 1 : 2); ++level)
                ASSERT_NO_FATAL_FAILURE(expect_level_filled_once(L, plan, R, k, level));
            ASSERT_NO_FATAL_FAILURE(expect_opposites_match(plan));
        }
}

TEST(HaloPlan, PhysicalBoundariesGetNoMessages) {
    const Decomposition d = decompose(MPI_COMM_SELF, {13, 11, 9}, {1, 1, 1}, {false, true, false});
    const Layout L(13, 11, 9, 8);
    const std::vector<HaloMessage> plan = plan_halo_messages(d, L, 4, 2);
    ASSERT_EQ(plan.size(), 2u); // periodic along y only: its two faces, no edges
    for (const HaloMessage& m : plan)
        EXPECT_TRUE(m.dir[0] == 0 && m.dir[2] == 0 && m.dir[1] != 0);
}

// A trial of `ms` per step whose windows spread by `spread`.
Trial trial(double ms, double spread = 0) {
    Trial t;
    t.step_ms = ms, t.spread = spread;
    return t;
}

std::vector<std::pair<int, Trial>> depths(std::vector<std::pair<int, double>> times,
                                          double spread = 0) {
    std::vector<std::pair<int, Trial>> trials;
    for (const auto& [k, ms] : times)
        trials.emplace_back(k, trial(ms, spread));
    return trials;
}

TEST(HaloDepthRule, TheFastestDepthUnlessAShallowerOneIsWithinTolerance) {
    EXPECT_EQ(fastest_depth(depths({{1, 0.050}, {2, 0.030}, {4, 0.026}})), 4);
    EXPECT_EQ(fastest_depth(depths({{1, 0.050}, {2, 0.030}, {4, 0.0295}})), 2); // 1.7%: not enough
    EXPECT_EQ(fastest_depth(depths({{1, 0.100}, {2, 0.101}, {4, 0.120}})), 1);  // bandwidth-bound
    EXPECT_EQ(fastest_depth(depths({{1, 0.050}, {2, 0.049}})), 1);
    EXPECT_EQ(fastest_depth(depths({{1, 0.050}})), 1);
}

TEST(HaloDepthRule, ADeeperHaloWithinTheTrialsSpreadIsNotTaken) {
    bool within = false;
    // 2 is 10% faster, but the windows of either trial spread by 12%.
    EXPECT_EQ(fastest_depth(depths({{1, 0.050}, {2, 0.045}}, 0.12), &within), 1);
    EXPECT_TRUE(within);
    EXPECT_EQ(fastest_depth(depths({{1, 0.050}, {2, 0.045}}, 0.05), &within), 2);
    EXPECT_FALSE(within);
    // 2 within the spread of 1, 4 faster than both by more: 4, and nothing
    // faster than 4 was left for the spread.
    std::vector<std::pair<int, Trial>> trials = {
        {1, trial(0.046, 0.004)}, {2, trial(0.0423, 0.58)}, {4, trial(0.0405, 0.024)}};
    EXPECT_EQ(fastest_depth(trials, &within), 4);
    EXPECT_FALSE(within);
}

TEST(TrialWindows, WindowsLastAtLeastTheTrialsWindowTime) {
    EXPECT_EQ(window_repeats(0.7), 1);   // 48 steps of 0.7 ms: 34 ms
    EXPECT_EQ(window_repeats(0.04), 11); // 48 of 0.04 ms: 1.9 ms, 11 of them 21 ms
    EXPECT_EQ(window_repeats(1e-6), kMaxTrialRepeats);
    EXPECT_EQ(window_repeats(0), 1);
    EXPECT_GE(window_repeats(0.04) * kTrialSteps * 0.04, kTrialWindowMs);
}

TEST(OverlapRule, OnUnlessOffIsFasterByMoreThanTheTolerance) {
    EXPECT_TRUE(overlap_wins(trial(1.034), trial(1.034)));
    EXPECT_TRUE(overlap_wins(trial(1.000), trial(1.100)));  // on faster
    EXPECT_TRUE(overlap_wins(trial(1.000), trial(0.985)));  // off 1.5% faster: not enough
    EXPECT_FALSE(overlap_wins(trial(1.034), trial(0.934))); // off 9.7% faster
    EXPECT_FALSE(overlap_wins(trial(1.000), trial(0.975))); // off 2.5% faster
    EXPECT_EQ(overlap_wins(trial(1.0), trial(1.0 - kOverlapTolerance * 1.01)), false);
    EXPECT_EQ(overlap_wins(trial(1.0), trial(1.0 - kOverlapTolerance * 0.99)), true);
}

TEST(OverlapRule, OffFasterWithinTheTrialsSpreadKeepsOn) {
    // Off 5% faster: taken where the windows agree to 1%, not where one
    // trial's windows spread by 6%.
    EXPECT_FALSE(overlap_wins(trial(1.0, 0.01), trial(0.95, 0.01)));
    EXPECT_TRUE(overlap_wins(trial(1.0, 0.06), trial(0.95, 0.01)));
    EXPECT_TRUE(overlap_wins(trial(1.0, 0.01), trial(0.95, 0.06)));
    EXPECT_EQ(compare_trials(trial(1.0, 0.06), trial(0.95), kOverlapTolerance),
              TrialVerdict::WithinSpread);
    EXPECT_EQ(compare_trials(trial(1.0, 0.06), trial(0.99), kOverlapTolerance),
              TrialVerdict::KeepDefault);
}

TEST(TrialWindows, MedianAndTheMiddleWindowsSpread) {
    EXPECT_DOUBLE_EQ(median_ms({3, 1, 2}), 2);
    EXPECT_DOUBLE_EQ(median_ms({4, 1, 3, 2}), 2.5);
    // One window disturbed (5.0) moves neither the median nor the spread
    // of the middle windows: 1.00, 1.01, 1.02 of 1.01.
    EXPECT_DOUBLE_EQ(median_ms({1.01, 5.0, 1.00, 1.02, 0.99}), 1.01);
    EXPECT_NEAR(window_spread({1.01, 5.0, 1.00, 1.02, 0.99}), 0.02 / 1.01, 1e-12);
    EXPECT_DOUBLE_EQ(window_spread({1.0}), 0);
    EXPECT_DOUBLE_EQ(window_spread({}), 0);
}

TEST(GpuAwareDetection, EnvironmentForcesTheAnswerEitherWay) {
    ::setenv("STENCIL_GPU_AWARE_MPI", "0", 1);
    GpuAwareness a = detect_gpu_aware_mpi();
    EXPECT_FALSE(a.supported);
    EXPECT_EQ(a.reason, "STENCIL_GPU_AWARE_MPI=0");
    ::setenv("STENCIL_GPU_AWARE_MPI", "1", 1);
    a = detect_gpu_aware_mpi();
    EXPECT_TRUE(a.supported);
    ::unsetenv("STENCIL_GPU_AWARE_MPI");
    a = detect_gpu_aware_mpi();
    EXPECT_FALSE(a.reason.empty()) << "every answer names its source";
}

} // namespace
} // namespace stencil

namespace stencil {
namespace {

RunPlan split(std::array<int, 3> grid, std::array<int, 3> procs) {
    RunPlan plan;
    plan.grid = grid;
    plan.procs = procs;
    return plan;
}

TEST(CheckReach, TheSignalMovesRCellsAlongOneAxisPerUpdate) {
    EXPECT_EQ(steps_to_reach({0, 0, 0}, 4), 2);
    EXPECT_EQ(steps_to_reach({0, 0, 15}, 4), 6);          // a planted drop-face showed from step 6
    EXPECT_EQ(steps_to_reach({0, 17, 21}, 4), 5 + 6 + 2); // axes add up: a star stencil
}

TEST(CheckReach, EachRanksHaloFromEachNeighbour) {
    // 48 cells split in two along z at 24. Rank 1 receives rank 0's cells
    // 20..23, 15 from a source at z = 5: step 6; rank 0 receives rank 1's
    // 24..27, 19 away: step 7 (5 updates of 4, then the halo's step).
    const RunPlan plan = split({48, 48, 48}, {1, 1, 2});
    const std::array<bool, 3> open{false, false, false};
    EXPECT_EQ(check_reach(plan, open, {24, 24, 5}, 4, 5).reached, 0);
    const CheckReach six = check_reach(plan, open, {24, 24, 5}, 4, 6);
    EXPECT_EQ(six.boundaries, 2);
    EXPECT_EQ(six.reached, 1);
    EXPECT_EQ(six.steps_for_all, 7);
    // Split along y and z (2 x 2): a face of the ranks far from the source
    // along y is reached only once the signal has crossed both axes.
    const CheckReach four = check_reach(split({40, 36, 44}, {1, 2, 2}), open, {20, 34, 42}, 4, 7);
    EXPECT_EQ(four.boundaries, 8);
    EXPECT_EQ(four.reached, 3); // a planted drop-face passed --check at 7 steps
    EXPECT_EQ(four.steps_for_all, 13);
}

TEST(CheckReach, APeriodicAxisWrapsAtItsEdges) {
    // One rank along a periodic x: its two faces receive its own far cells.
    // From cell 3 at R = 2: the -x face gets cells 38..39 (4 away), the +x
    // face cells 0..1 (2 away).
    const std::array<bool, 3> x_only{true, false, false};
    const CheckReach one = check_reach(split({40, 8, 8}, {1, 1, 1}), x_only, {3, 4, 4}, 2, 10);
    EXPECT_EQ(one.boundaries, 2);
    EXPECT_EQ(one.steps_for_all, 4);
    // Uneven splits give the remainder to the first ranks: 10 cells in 3
    // parts are 4, 3, 3; four faces between them.
    const CheckReach uneven =
        check_reach(split({10, 8, 8}, {3, 1, 1}), {false, false, false}, {0, 4, 4}, 1, 9);
    EXPECT_EQ(uneven.boundaries, 4);
    EXPECT_EQ(uneven.steps_for_all, 9); // rank 1 receives cells 7.. of rank 2: 7 away
    EXPECT_EQ(uneven.reached, 4);
}

// The route plan, which the run's plan, halo depth, overlap, setup and
// report ask in place of the path: a link path stores every face on one
// node, sends the others by MPI across nodes, and needs the update to
// store faces; a halo path stores only a rank's own.
TEST(RoutePlan, SaysWhichFacesTheUpdateStoresForEachPath) {
    RoutePlan mpi;
    mpi.mode = CommMode::GpuAware, mpi.procs = {2, 2, 1};
    EXPECT_TRUE(mpi.has_neighbours());
    EXPECT_FALSE(mpi.links_faces() || mpi.shares_node_memory() || mpi.sends_off_node());
    EXPECT_FALSE(mpi.every_face_stored());

    RoutePlan linked = mpi;
    linked.mode = CommMode::Peer;
    EXPECT_TRUE(linked.links_faces() && linked.shares_node_memory());
    EXPECT_TRUE(linked.every_face_stored());
    EXPECT_FALSE(linked.sends_off_node());
    EXPECT_STREQ(linked.link_name(), "peer");
    linked.one_node = false; // faces leave the node as messages
    EXPECT_TRUE(linked.sends_off_node());
    EXPECT_FALSE(linked.every_face_stored());

    RoutePlan alone; // one rank: its faces, if any, are its own
    EXPECT_FALSE(alone.has_neighbours());
    EXPECT_TRUE(alone.every_face_stored());
    alone.periodic = {true, false, false};
    EXPECT_TRUE(alone.has_neighbours());
    alone.update_may_store = false; // --pack separate: the exchange copies them
    EXPECT_FALSE(alone.every_face_stored());
    alone.mode = CommMode::None;
    EXPECT_TRUE(alone.moves_nothing());
}

// The run's route plan takes the update's part from --pack and the halo
// depth, and the rest from the run's plan.
TEST(RoutePlan, OfARunTakesThePackAndDepthFromItsOptions) {
    Options o;
    RunPlan plan;
    plan.comm_mode = CommMode::Peer, plan.procs = {1, 2, 2}, plan.one_node = true;
    EXPECT_TRUE(route_plan(o, plan).every_face_stored());
    o.halo_depth = 2;
    EXPECT_FALSE(route_plan(o, plan).update_may_store);
    o.halo_depth = 0, o.pack = PackChoice::Separate;
    EXPECT_FALSE(route_plan(o, plan).every_face_stored());
    o.pack = PackChoice::Fused, plan.one_node = false;
    EXPECT_EQ(route_plan(o, plan).procs, plan.procs);
    EXPECT_TRUE(route_plan(o, plan).sends_off_node());
}

} // namespace
} // namespace stencil
