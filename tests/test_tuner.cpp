// The self-tuner's search against timers with known minima: it must find
// them, never keep a shape that could not run or gave other bits, ignore
// gains within the noise, and stop at its budget.
#include "tuner.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>

namespace stencil {
namespace {

const TuneSpace kSpace{{{16, 8}, {8, 16}, {32, 4}, {64, 2}}, {1, 2, 4, 8, 16, 32, 64}, {1, 2, 4}};
const LaunchShape kStart{16, 8, 16, 2};

// A separable cost with its minimum at 32 x 4, 4 planes, 1 row.
double bowl(const LaunchShape& t) {
    return 1.0 + 0.3 * (t.block_x == 32 ? 0 : 1) + 0.1 * std::abs(std::log2(t.window) - 2) +
           0.2 * (t.rows - 1);
}

Timing ran(double ms) {
    return {Timing::Ran, ms, ms};
}

TEST(Tuner, FindsTheMinimumOfASeparableCost) {
    const TuneResult r = coordinate_descent(
        kStart, kSpace, [](const LaunchShape& t) { return ran(bowl(t)); }, 0.01, 1e9);
    EXPECT_EQ(r.best.block_x, 32);
    EXPECT_EQ(r.best.block_y, 4);
    EXPECT_EQ(r.best.window, 4);
    EXPECT_EQ(r.best.rows, 1);
    EXPECT_DOUBLE_EQ(r.best_ms, 1.0);
    EXPECT_DOUBLE_EQ(r.start_ms, bowl(kStart));
    EXPECT_FALSE(r.out_of_time);
    EXPECT_EQ(r.refused, 0);
    EXPECT_LE(r.tried, 4 * 7 * 3); // each shape timed once
}

TEST(Tuner, NeverKeepsAShapeThatCannotRunOrGivesOtherBits) {
    const TuneResult r = coordinate_descent(
        kStart, kSpace,
        [](const LaunchShape& t) {
            if (t.block_x == 32) return Timing{Timing::CannotRun, 0, 0};     // the fastest blocks
            if (t.window == 4) return Timing{Timing::WrongResult, 0.1, 0.1}; // the fastest window
            return ran(bowl(t));
        },
        0.01, 1e9);
    EXPECT_NE(r.best.block_x, 32);
    EXPECT_NE(r.best.window, 4);
    EXPECT_GT(r.refused, 0);
    EXPECT_EQ(r.best.rows, 1);
}

TEST(Tuner, GainsWithinTheNoiseKeepTheDefault) {
    // Every other shape is 1% faster: within 2% noise, nothing moves.
    const TuneResult r = coordinate_descent(
        kStart, kSpace,
        [](const LaunchShape& t) {
            const bool start = t.block_x == 16 && t.block_y == 8 && t.window == 16 && t.rows == 2;
            return ran(start ? 1.0 : 0.99);
        },
        0.02, 1e9);
    EXPECT_EQ(r.best.window, kStart.window);
    EXPECT_EQ(r.best.block_x, kStart.block_x);
    EXPECT_EQ(r.best.rows, kStart.rows);
}

// A shape that was fast once, by luck, and then not: the confirmation's
// alternating rounds keep the default.
TEST(Tuner, ALuckyMeasurementDoesNotReplaceTheDefault) {
    int calls_32x4 = 0;
    const TuneResult r = coordinate_descent(
        kStart, kSpace,
        [&](const LaunchShape& t) {
            if (t.block_x == 32) return ran(++calls_32x4 == 1 ? 0.5 : 2.0); // lucky, then slow
            return ran(bowl(t) < 1.5 ? 1.3 : bowl(t)); // nothing else beats the start by much
        },
        0.01, 1e9);
    EXPECT_TRUE(r.unconfirmed);
    EXPECT_EQ(r.best.block_x, kStart.block_x);
    EXPECT_EQ(r.best.window, kStart.window);
    EXPECT_EQ(r.best.rows, kStart.rows);
    EXPECT_NE(r.summary().find("lost its lead"), std::string::npos);
}

// The wave update's planes ahead are a coordinate of their own: the search
// takes two where they are faster and built, and keeps one where the timer
// refuses them (fits() does at rows they are not built for).
TEST(Tuner, TriesTwoPlanesAheadWhereTheSpaceHoldsThem) {
    TuneSpace space = kSpace;
    space.aheads = {1, 2};
    auto faster_ahead = [](const LaunchShape& t) { return ran(bowl(t) - 0.05 * (t.ahead - 1)); };
    const TuneResult two = coordinate_descent(kStart, space, faster_ahead, 0.01, 1e9);
    EXPECT_EQ(two.best.ahead, 2);
    EXPECT_EQ(two.best.block_x, 32);
    EXPECT_NE(two.summary().find("1 rows, 2 ahead"), std::string::npos) << two.summary();
    const TuneResult refused = coordinate_descent(
        kStart, space,
        [&](const LaunchShape& t) {
            return t.ahead == 2 ? Timing{Timing::CannotRun, 0, 0} : faster_ahead(t);
        },
        0.01, 1e9);
    EXPECT_EQ(refused.best.ahead, 0); // the start's: one plane
    EXPECT_GT(refused.refused, 0);
    // Without two in the space, the faster timer is never asked for them.
    const TuneResult one = coordinate_descent(kStart, kSpace, faster_ahead, 0.01, 1e9);
    EXPECT_EQ(one.best.ahead, 0);
}

TEST(Tuner, StopsAtItsBudget) {
    int calls = 0;
    const TuneResult r = coordinate_descent(
        kStart, kSpace,
        [&](const LaunchShape& t) {
            ++calls;
            return Timing{Timing::Ran, bowl(t), 10.0}; // each measurement costs 10 ms
        },
        0.01, 35.0, 0);
    EXPECT_TRUE(r.out_of_time);
    EXPECT_EQ(calls, 4); // 40 ms spent, over the 35 (no confirmation rounds asked)
    EXPECT_LE(r.best_ms, r.start_ms);
}

TEST(Tuner, AStartThatCannotRunIsReturnedUntimed) {
    const TuneResult r = coordinate_descent(
        kStart, kSpace,
        [](const LaunchShape&) {
            return Timing{Timing::CannotRun, 0, 0};
        },
        0.01, 1e9);
    EXPECT_EQ(r.best_ms, 0.0);
    EXPECT_EQ(r.best.window, kStart.window);
    EXPECT_EQ(r.tried, 1);
}

TEST(Tuner, TheSpaceHoldsOnlyShapesTheKernelIsBuiltFor) {
    for (const Precision p : {Precision::FP32, Precision::FP64})
        for (int R = 1; R <= 8; ++R)
            for (const FusedKernel kernel : {FusedKernel::Laplacian, FusedKernel::Wave}) {
                const TuneSpace s = tune_space(kernel, R, p, 40);
                EXPECT_FALSE(s.blocks.empty());
                for (int rows : s.rows)
                    EXPECT_LE(rows, max_fused_rows(R, kernel));
                for (const auto& [bx, by] : s.blocks)
                    EXPECT_EQ(fits(resolve_shape(LaunchShape{bx, by, 0, 1}, R, p), R, p, kernel),
                              "");
                EXPECT_EQ(s.windows.back(), 32); // at most the box's 40 planes
                const bool two = kernel == FusedKernel::Wave &&
                                 two_planes_ahead_built(R, p, default_rows(R, p, kernel));
                const std::vector<int> aheads = two ? std::vector<int>{1, 2} : std::vector<int>{1};
                EXPECT_EQ(s.aheads, aheads) << "R=" << R << " " << precision_name(p);
            }
}

} // namespace
} // namespace stencil
