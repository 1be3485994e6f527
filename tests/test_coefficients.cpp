// The derived weights against exact values, and the defining moment conditions.
#include "coefficients.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace stencil {
namespace {

// The closed form of the order-2R central second-derivative weights,
//   w_r = 2 (-1)^(r+1) (R!)^2 / (r^2 (R-r)! (R+r)!),  w_0 = -2 sum w_r,
// an independent derivation to hold Fornberg's recursion against.
long double closed_form_weight(int R, int r) {
    if (r == 0) {
        long double sum = 0;
        for (int s = 1; s <= R; ++s)
            sum += closed_form_weight(R, s);
        return -2 * sum;
    }
    long double value = 2.0L * ((r + 1) % 2 == 0 ? 1 : -1);
    for (int n = 1; n <= R; ++n)
        value *= n * n; // (R!)^2
    long double denominator = (long double)r * r;
    for (int n = 1; n <= R - r; ++n)
        denominator *= n;
    for (int n = 1; n <= R + r; ++n)
        denominator *= n;
    return value / denominator;
}

TEST(Coefficients, RadiusOneIsTheClassicThreePointStencil) {
    const auto w = central_second_derivative_weights(1);
    ASSERT_EQ(w.size(), 2u);
    EXPECT_NEAR(double(w[0]), -2.0, 1e-15);
    EXPECT_NEAR(double(w[1]), 1.0, 1e-15);
}

TEST(Coefficients, RadiusFourMatchesTheKnownRationals) {
    const auto w = central_second_derivative_weights(4);
    const double expected[5] = {-205.0 / 72, 8.0 / 5, -1.0 / 5, 8.0 / 315, -1.0 / 560};
    for (int r = 0; r <= 4; ++r)
        EXPECT_NEAR(double(w[r]), expected[r], 1e-15) << "r=" << r;
}

TEST(Coefficients, EveryRadiusMatchesTheClosedForm) {
    for (int R = kMinRadius; R <= kMaxRadius; ++R) {
        const auto w = central_second_derivative_weights(R);
        for (int r = 0; r <= R; ++r)
            EXPECT_NEAR(double(w[r]), double(closed_form_weight(R, r)),
                        1e-13 * std::fabs(double(closed_form_weight(R, r))) + 1e-15)
                << "R=" << R << " r=" << r;
    }
}

// An order-2R second derivative is exact on x^m for m <= 2R+1: sum_r w_r r^m
// must be 0 for every m except m = 2, where it must be 2.
TEST(Coefficients, MomentConditionsHold) {
    for (int R = kMinRadius; R <= kMaxRadius; ++R) {
        const auto w = central_second_derivative_weights(R);
        for (int m = 0; m <= 2 * R + 1; ++m) {
            long double moment = m == 0 ? w[0] : 0.0L;
            for (int r = 1; r <= R; ++r)
                moment += w[r] * (std::pow((long double)r, m) + std::pow((long double)-r, m));
            EXPECT_NEAR(double(moment), m == 2 ? 2.0 : 0.0, 1e-9) << "R=" << R << " m=" << m;
        }
    }
}

TEST(Coefficients, ScaledByInverseSpacingSquaredPerDirection) {
    const auto c = make_coefficients<3, double>(0.5, 2.0, 0.1);
    const auto w = central_second_derivative_weights(3);
    for (int r = 0; r <= 3; ++r) {
        EXPECT_NEAR(c.x[r], double(w[r]) / 0.25, 1e-12);
        EXPECT_NEAR(c.y[r], double(w[r]) / 4.0, 1e-12);
        EXPECT_NEAR(c.z[r], double(w[r]) / 0.01, 1e-10);
    }
    EXPECT_NEAR(c.centre, c.x[0] + c.y[0] + c.z[0], 1e-12);
}

} // namespace
} // namespace stencil
