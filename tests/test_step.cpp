// The step's phase lists and how the graph runner splits them
// (miniapp/schedule/step_phases.hpp), for every schedule a run can have,
// and the test aids planted into them (testing/planted_phases.hpp). The
// lists are written out by hand from the design's order; the properties
// below hold for every combination, so a change to the schedule that
// breaks an ordering rule fails here before it reaches a GPU.
#include "schedule/step_phases.hpp"
#include "testing/planted_phases.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace stencil {
namespace {

ScheduleInputs inputs(bool overlap, bool moves_data, bool host_between, bool deep = false) {
    ScheduleInputs in;
    in.overlap = overlap, in.moves_data = moves_data, in.host_between = host_between;
    in.pack_reaches_interior = deep;
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
TEST(StepPhases, EveryScheduleKeepsTheOrderingRules) {
    for (int mask = 0; mask < 16; ++mask) {
        const ScheduleInputs in = inputs(mask & 1, mask & 2, (mask & 2) && (mask & 4), mask & 8);
        const auto s = step_phases(in, 0);
        SCOPED_TRACE(describe(s));
        const std::size_t n = s.size();
        EXPECT_EQ(s.front().kind, PhaseKind::Begin);
        EXPECT_EQ(s.back().kind, PhaseKind::Source);
        EXPECT_EQ(s.back().lane, Lane::Compute);
        const std::size_t update =
            std::min(position(s, PhaseKind::Boundary), position(s, PhaseKind::Whole));
        ASSERT_LT(update, n);
        EXPECT_EQ(position(s, PhaseKind::Interior) < n, in.overlap);
        EXPECT_EQ(position(s, PhaseKind::Pack) < n, in.moves_data);
        if (in.moves_data) {
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
        if (in.overlap && in.moves_data) { // the interior runs while the halos travel
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

// The fused pack with every face the rank's own: no exchange phase, and the
// shell on the halo stream beside the interior, joined before the source
// (which the shell's copies of the source cell need too).
TEST(StepPhases, HalosReadyRunTheShellFirst) {
    ScheduleInputs in = inputs(true, false, false);
    in.halos_ready = true;
    EXPECT_EQ(describe(step_phases(in, 0)),
              "begin@host fork@compute interior@compute boundary@halo join@compute "
              "source@compute");
    EXPECT_EQ(describe_runs(step_phases(in, 0)),
              "(begin) [fork interior boundary join source]@compute ");
    in.overlap = false; // no slabs to store the faces: the plain whole-box step
    EXPECT_EQ(describe(step_phases(in, 0)), "begin@host whole@compute source@compute");
}

TEST(GraphRuns, CoverEveryPhaseOnceAndCaptureNoHostPhase) {
    for (int mask = 0; mask < 16; ++mask)
        for (int ring_step = 0; ring_step < 2; ++ring_step) {
            const auto s = step_phases(
                inputs(mask & 1, mask & 2, (mask & 2) && (mask & 4), mask & 8), ring_step);
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
                (p.kind == PhaseKind::Fault ? "#" + std::to_string(int(p.fault)) : "");
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
              "begin fork fault#1 pack interior post wait unpack boundary join source");
    EXPECT_EQ(planted(mpi, aids_of("drop-face", false), false),
              "begin fork pack interior post wait unpack fault#2 boundary join source");
    // Fused pack: and before the slabs, which fill the rank's own halos (#3).
    EXPECT_EQ(planted(mpi, aids_of("drop-face", true), true),
              "begin fork fault#1 pack interior post wait unpack fault#3 boundary join source");
    // early-boundary: the slabs right after the fork.
    EXPECT_EQ(planted(mpi, aids_of("early-boundary", false), false),
              "begin fork boundary pack interior post wait unpack join source");
    // A rank alone on a periodic box with the fused pack: no pack, still #3.
    ScheduleInputs alone = inputs(true, false, false);
    alone.halos_ready = true;
    EXPECT_EQ(planted(alone, aids_of(nullptr, true), true),
              "begin fork interior fault#3 boundary join source");
    // A deep halo's ring step exchanges nothing: nothing planted.
    std::vector<Phase> ring = step_phases(mpi, 1);
    plant_in_schedule(ring, aids_of("drop-face", true), false);
    EXPECT_EQ(describe(ring), describe(step_phases(mpi, 1)));
}

} // namespace
} // namespace stencil
