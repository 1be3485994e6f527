// The step's phase lists and how the graph runner splits them
// (miniapp/schedule/step_phases.hpp), for every schedule a run can have,
// and the test aids planted into them (testing/planted_phases.hpp). The
// lists are written out by hand from the design's order; the properties
// below hold for every combination, so a change to the schedule that
// breaks an ordering rule fails here before it reaches a GPU.
#include "schedule/step_phases.hpp"
#include "step/step_boxes.hpp"
#include "step/step_clock.hpp"
#include "testing/planted_phases.hpp"
#include "testing/step_aids.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <thread>

namespace stencil {
namespace {

ScheduleInputs inputs(bool overlap, bool messages, bool host_between, bool deep = false,
                      bool links = false) {
    ScheduleInputs in;
    in.overlap = overlap, in.messages = messages, in.host_between = host_between;
    in.pack_reaches_interior = deep, in.links = links;
    return in;
}

TEST(StepPhases, MpiExchangeStepWithOverlap) {
    EXPECT_EQ(describe(step_phases(inputs(true, true, true), 0)),
              "begin@host fork@compute pack@halo interior@compute post@host wait@host "
              "unpack@halo boundary@halo join@compute source@compute");
}

TEST(StepPhases, MpiExchangeStepWithoutOverlap) {
    EXPECT_EQ(describe(step_phases(inputs(false, true, true), 0)),
              "begin@host fork@compute pack@halo post@host wait@host unpack@halo whole@halo "
              "join@compute source@compute");
}

TEST(StepPhases, NcclIsStreamOrdered) {
    EXPECT_EQ(describe(step_phases(inputs(true, true, false), 0)),
              "begin@host fork@compute pack@halo interior@compute post@halo unpack@halo "
              "boundary@halo join@compute source@compute");
}

TEST(StepPhases, NothingToExchangeStaysOnCompute) {
    EXPECT_EQ(describe(step_phases(inputs(true, false, false), 0)),
              "begin@host interior@compute boundary@compute source@compute");
    EXPECT_EQ(describe(step_phases(inputs(false, false, false), 0)),
              "begin@host whole@compute source@compute");
}

// Every face a rank's own or linked on the node: one update a step, after
// the neighbours' last step and before this rank's is raised.
TEST(StepPhases, LinkedFacesAloneMakeOneKernelAStep) {
    EXPECT_EQ(describe(step_phases(inputs(false, false, false, false, true), 0)),
              "begin@host await@compute whole@compute source@compute signal@compute");
}

// Faces off the node still travel: the wait comes first, so that both
// streams follow it, and the raise last, after every store.
TEST(StepPhases, LinkedAndMessageFacesWaitFirstAndSignalLast) {
    EXPECT_EQ(describe(step_phases(inputs(true, true, true, false, true), 0)),
              "begin@host await@compute fork@compute pack@halo interior@compute post@host "
              "wait@host unpack@halo boundary@halo join@compute source@compute signal@compute");
    EXPECT_EQ(describe(step_phases(inputs(false, true, true, false, true), 0)),
              "begin@host await@compute fork@compute pack@halo post@host wait@host unpack@halo "
              "whole@halo join@compute source@compute signal@compute");
}

TEST(StepPhases, DeepPackFencesTheInterior) {
    EXPECT_EQ(describe(step_phases(inputs(true, true, true, true), 0)),
              "begin@host fork@compute pack@halo join@compute interior@compute post@host "
              "wait@host unpack@halo boundary@halo join@compute source@compute");
    // Without overlap nothing writes during the pack: no fence.
    const auto off = step_phases(inputs(false, true, true, true), 0);
    EXPECT_EQ(std::count_if(off.begin(), off.end(),
                            [](const Phase& p) { return p.kind == PhaseKind::Join; }),
              1);
}

TEST(StepPhases, RingStepsAreTheListWithoutTheExchange) {
    for (int ring_step = 1; ring_step < 8; ++ring_step)
        EXPECT_EQ(describe(step_phases(inputs(true, true, true, true), ring_step)),
                  "interior@compute source@compute");
}

std::size_t position(const std::vector<Phase>& s, PhaseKind kind) {
    for (std::size_t i = 0; i < s.size(); ++i)
        if (s[i].kind == kind) return i;
    return s.size();
}

// Every combination: the orderings the bitwise equality with one domain
// rests on.
ScheduleInputs inputs_of(int mask) {
    return inputs(mask & 1, mask & 2, (mask & 2) && (mask & 4), mask & 8, mask & 16);
}

TEST(StepPhases, EveryScheduleKeepsTheOrderingRules) {
    for (int mask = 0; mask < 32; ++mask) {
        const ScheduleInputs in = inputs_of(mask);
        const auto s = step_phases(in, 0);
        SCOPED_TRACE(describe(s));
        const std::size_t n = s.size();
        EXPECT_EQ(s.front().kind, PhaseKind::Begin);
        EXPECT_EQ(s.back().kind, in.links ? PhaseKind::Signal : PhaseKind::Source);
        EXPECT_EQ(s.back().lane, Lane::Compute);
        if (in.links) { // the wait before anything else, on the stream the halo stream forks from
            EXPECT_EQ(s[1].kind, PhaseKind::Await);
            EXPECT_EQ(s[1].lane, Lane::Compute);
            EXPECT_EQ(s[n - 2].kind, PhaseKind::Source);
        }
        const std::size_t update =
            std::min(position(s, PhaseKind::Boundary), position(s, PhaseKind::Whole));
        ASSERT_LT(update, n);
        EXPECT_EQ(position(s, PhaseKind::Interior) < n, in.overlap);
        EXPECT_EQ(position(s, PhaseKind::Pack) < n, in.messages);
        if (in.messages) {
            EXPECT_LT(position(s, PhaseKind::Fork), position(s, PhaseKind::Pack));
            EXPECT_LT(position(s, PhaseKind::Pack), position(s, PhaseKind::Post));
            EXPECT_LT(position(s, PhaseKind::Unpack), update); // the shell reads the halos
            // The compute stream waits for the halo stream before the source.
            std::size_t last_halo = 0, last_join = 0;
            for (std::size_t i = 0; i < n; ++i) {
                if (s[i].lane == Lane::Halo) last_halo = i;
                if (s[i].kind == PhaseKind::Join) last_join = i;
            }
            EXPECT_LT(last_halo, last_join);
        }
        if (in.overlap && in.messages) { // the interior runs while the halos travel
            EXPECT_LT(position(s, PhaseKind::Interior), position(s, PhaseKind::Post));
        }
    }
}

std::string describe_runs(const std::vector<Phase>& s) {
    std::string text;
    for (const PhaseRun& r : graph_runs(s)) {
        text += r.captured ? "[" : "(";
        for (std::size_t i = r.first; i < r.last; ++i)
            text += std::string(i == r.first ? "" : " ") + phase_name(s[i].kind);
        text += r.captured ? std::string("]@") + lane_name(r.origin) + (r.joins_halo ? "+join" : "")
                           : ")";
        text += " ";
    }
    return text;
}

TEST(GraphRuns, MpiStepIsTwoGraphsAroundTheHost) {
    EXPECT_EQ(describe_runs(step_phases(inputs(true, true, true), 0)),
              "(begin) [fork pack interior]@compute+join (post) (wait) [unpack boundary]@halo "
              "(join) (source) ");
    EXPECT_EQ(describe_runs(step_phases(inputs(true, true, true, true), 0)),
              "(begin) [fork pack join interior]@compute (post) (wait) [unpack boundary]@halo "
              "(join) (source) ");
}

TEST(GraphRuns, StreamOrderedStepsAreOneGraph) {
    EXPECT_EQ(describe_runs(step_phases(inputs(true, true, false), 0)),
              "(begin) [fork pack interior post unpack boundary join source]@compute ");
    EXPECT_EQ(describe_runs(step_phases(inputs(false, false, false), 0)),
              "(begin) [whole source]@compute ");
    EXPECT_EQ(describe_runs(step_phases(inputs(true, true, true, true), 2)),
              "[interior source]@compute ");
}

// The one-kernel step of linked faces replays as one graph, and with
// messages the wait joins the first graph.
TEST(GraphRuns, TheLinkedStepIsOneGraph) {
    EXPECT_EQ(describe_runs(step_phases(inputs(false, false, false, false, true), 0)),
              "(begin) [await whole source signal]@compute ");
    EXPECT_EQ(describe_runs(step_phases(inputs(true, true, true, false, true), 0)),
              "(begin) [await fork pack interior]@compute+join (post) (wait) [unpack "
              "boundary]@halo (join) (source) (signal) ");
}

TEST(GraphRuns, CoverEveryPhaseOnceAndCaptureNoHostPhase) {
    for (int mask = 0; mask < 32; ++mask)
        for (int ring_step = 0; ring_step < 2; ++ring_step) {
            const auto s = step_phases(inputs_of(mask), ring_step);
            SCOPED_TRACE(describe(s));
            std::size_t next = 0;
            for (const PhaseRun& r : graph_runs(s)) {
                EXPECT_EQ(r.first, next);
                EXPECT_LT(r.first, r.last);
                next = r.last;
                for (std::size_t i = r.first; i < r.last && r.captured; ++i) {
                    EXPECT_NE(s[i].lane, Lane::Host);
                    // Replayed on the halo stream, a graph cannot wait for
                    // the compute stream's work from outside it.
                    if (r.origin == Lane::Halo) {
                        EXPECT_NE(s[i].kind, PhaseKind::Join);
                    }
                }
            }
            EXPECT_EQ(next, s.size());
        }
}

TestAids aids_of(const char* fault, bool poison) {
    TestAids aids;
    if (fault) {
        EXPECT_EQ(aids.inject_fault(fault), "");
    }
    if (poison) aids.set_poison_halo();
    return aids;
}

std::string planted(const ScheduleInputs& in, const TestAids& aids, bool fused) {
    std::vector<Phase> s = step_phases(in, 0);
    plant_in_schedule(s, aids, fused);
    std::string text;
    for (const Phase& p : s)
        text += std::string(text.empty() ? "" : " ") + phase_name(p.kind) +
                (p.kind == PhaseKind::Hook ? "#" + std::to_string(p.hook_point) : "");
    return text;
}

TEST(PlantedPhases, NoAidLeavesTheScheduleAsItIs) {
    const ScheduleInputs in = inputs(true, true, true);
    EXPECT_EQ(planted(in, TestAids{}, false), planted(in, TestAids{}, true));
    std::vector<Phase> s = step_phases(in, 0);
    plant_in_schedule(s, TestAids{}, false);
    EXPECT_EQ(describe(s), describe(step_phases(in, 0)));
}

TEST(PlantedPhases, FaultsStrikeWhereTheyMust) {
    const ScheduleInputs mpi = inputs(true, true, true);
    // Separate pack: NaN before the pack (#1), the face zeroed after the unpack (#2).
    EXPECT_EQ(planted(mpi, aids_of(nullptr, true), false),
              "begin fork hook#1 pack interior post wait unpack boundary join source");
    EXPECT_EQ(planted(mpi, aids_of("drop-face", false), false),
              "begin fork pack interior post wait unpack hook#2 boundary join source");
    // Fused pack: and before the first update, which stores the rank's own
    // halos (#3), on compute ahead of the fork.
    EXPECT_EQ(planted(mpi, aids_of("drop-face", true), true),
              "begin hook#3 fork hook#1 pack interior post wait unpack hook#2 boundary join "
              "source");
    // early-boundary: the slabs right after the fork.
    EXPECT_EQ(planted(mpi, aids_of("early-boundary", false), false),
              "begin fork boundary pack interior post wait unpack join source");
    // A rank alone on a periodic box with the fused pack: one kernel, still #3.
    const ScheduleInputs alone = inputs(false, false, false);
    EXPECT_EQ(planted(alone, aids_of(nullptr, true), true), "begin hook#3 whole source");
    // The linked route's races: the wait left out, or the raise before the
    // stores, with the update held back (#4) where the ranks but 0 run it.
    const ScheduleInputs linked = inputs(false, false, false, false, true);
    EXPECT_EQ(planted(linked, aids_of("peer-skip-wait", false), true),
              "begin hook#4 whole source signal");
    EXPECT_EQ(planted(linked, aids_of("peer-early-signal", false), true),
              "begin await signal hook#4 whole source");
    // A deep halo's ring step exchanges nothing: nothing planted.
    std::vector<Phase> ring = step_phases(mpi, 1);
    plant_in_schedule(ring, aids_of("drop-face", true), false);
    EXPECT_EQ(describe(ring), describe(step_phases(mpi, 1)));
}

std::size_t cells(const std::vector<Box>& boxes) {
    std::size_t n = 0;
    for (const Box& b : boxes)
        n += b.cells();
    return n;
}

TEST(StepBoxes, TheShellAndTheInnerBoxMakeTheWholeBox) {
    const Layout L(20, 16, 12, 2);
    const StepBoxes b = step_boxes(L, 2, 1, {true, true, true, true, true, true});
    EXPECT_EQ(b.whole.cells(), L.interior().cells()); // depth 1: the owned cells
    EXPECT_EQ(b.inner.nx(), 16);                      // shrunk by R on every side
    EXPECT_EQ(b.inner.cells() + cells(b.slabs), b.whole.cells());
    EXPECT_TRUE(b.rings.empty());
    // Without neighbours, nothing waits: no shell.
    const StepBoxes alone = step_boxes(L, 2, 1, {});
    EXPECT_EQ(alone.inner.cells(), alone.whole.cells());
    EXPECT_EQ(cells(alone.slabs), 0u);
}

TEST(StepBoxes, WiderXSlabsNarrowTheInnerBoxAlongXOnly) {
    const Layout L(20, 16, 12, 2);
    const StepBoxes b = step_boxes(L, 2, 1, {true, true, true, true, true, true}, 6);
    EXPECT_EQ(b.inner.nx(), 8);
    EXPECT_EQ(b.inner.ny(), 12);
    EXPECT_EQ(b.inner.cells() + cells(b.slabs), b.whole.cells());
    // Never narrower than the halo reaches.
    EXPECT_EQ(step_boxes(L, 2, 1, {true, true, true, true, true, true}, 1).inner.nx(), 16);
}

TEST(SlabXDepth, ALineOfCellsWhereTheBoxIsWideElseTheShell) {
    EXPECT_EQ(slab_x_depth(0, 4, 512, Precision::FP32), 32);
    EXPECT_EQ(slab_x_depth(0, 4, 511, Precision::FP32), 4);
    EXPECT_EQ(slab_x_depth(0, 4, 256, Precision::FP32), 4);
    EXPECT_EQ(slab_x_depth(0, 4, 256, Precision::FP64), 16);
    EXPECT_EQ(slab_x_depth(0, 40, 512, Precision::FP32), 40); // deep halos reach further
    EXPECT_EQ(slab_x_depth(10, 4, 64, Precision::FP32), 10);  // --slab-x 10
    EXPECT_EQ(slab_x_depth(2, 4, 512, Precision::FP32), 4);
}

TEST(StepBoxes, DeepHalosGrowTheBoxOnTheSidesWithANeighbour) {
    // Depth 3, R = 2, neighbours along x only: the exchange step updates
    // the interior grown by (k-1)*R = 4 cells on both x sides, the ring
    // steps by 2, then 0.
    const Layout L(20, 16, 12, 6);
    const StepBoxes b = step_boxes(L, 2, 3, {true, true, false, false, false, false});
    EXPECT_EQ(b.whole.nx(), 28);
    EXPECT_EQ(b.whole.ny(), 16);
    ASSERT_EQ(b.rings.size(), 2u);
    EXPECT_EQ(b.rings[0].nx(), 24);
    EXPECT_EQ(b.rings[1].nx(), 20);
    // The planted short ring: one cell short on the first grown side.
    const std::array<bool, 6> sides{true, true, false, false, false, false};
    const StepBoxes short_ring =
        step_boxes(L, 2, 3, sides, 0, [&](Box& grown) { shorten_grown_box(grown, sides); });
    EXPECT_EQ(short_ring.whole.x0, b.whole.x0 + 1);
    EXPECT_EQ(short_ring.rings[1].x0, b.rings[1].x0); // the owned box is never short
}

TEST(SourceImages, ARankAloneOnAPeriodicBoxHoldsEveryImageItsRingReaches) {
    // 40 cells per axis, R = 8, depth 4: a halo of 32, the exchange step's
    // box 24 cells past the owned ones, so the source at cell 20 (padded
    // 52) has images at 12 and 92 inside it along each axis: 27.
    const Layout L(40, 40, 40, 32);
    const StepBoxes b = step_boxes(L, 8, 4, {true, true, true, true, true, true});
    const std::array<int, 3> at{20, 20, 20}, zero{0, 0, 0}, global{40, 40, 40};
    EXPECT_EQ(source_images(at, zero, global, {true, true, true}, 32, b.whole).size(), 27u);
    EXPECT_EQ(source_images(at, zero, global, {true, false, false}, 32, b.whole).size(), 3u);
    EXPECT_EQ(source_images(at, zero, global, {false, false, false}, 32, b.whole).size(), 1u);
    // The owned box holds the cell alone; a rank that does not own it, none.
    EXPECT_EQ(source_images(at, zero, global, {true, true, true}, 32, L.interior()).size(), 1u);
    EXPECT_EQ(source_images(at, {20, 0, 0}, global, {false, false, false}, 32, L.interior()).size(),
              1u);
    EXPECT_TRUE(source_images(at, {21, 0, 0}, global, {false, false, false}, 32,
                              Box{32, 52, 32, 72, 32, 72})
                    .empty());
}

// A chunk's steps record one done, at its last step (step_chunks.cpp): the
// clock counts every step of it and times them together, done to done.
// Events on the HOST back-end take the host's time when recorded.
TEST(StepClock, EveryStepOfAChunkCountsAndItsDoneTimesThemAll) {
    using Clock = std::chrono::steady_clock;
    Stream compute;
    StepClock clock(1);
    auto collect = [&](int n) { clock.read(n); };
    const Clock::time_point before = Clock::now();
    for (int n = 0; n < 8; ++n) {
        StepTimers& t = clock.begin(n, true, compute, collect);
        t.recorded = n % 4 == 3; // two chunks of four
        if (t.recorded) {
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
            t.done.record(compute);
        }
    }
    const double wall_ms = std::chrono::duration<double, std::milli>(Clock::now() - before).count();
    while (clock.collected() < 8)
        clock.read(clock.collected());
    EXPECT_EQ(clock.totals().steps, 8);
    // Both chunks' sleeps, and no time counted twice.
    EXPECT_GE(clock.totals().step, 4.0);
    EXPECT_LE(clock.totals().step, wall_ms);
}

} // namespace
} // namespace stencil
