// The host reference operators: exact on polynomials, of the right
// convergence order on a smooth function, exact on periodic functions once
// the halo is wrapped, and writing only inside the Box.
#include "host_operators.hpp"
#include "polynomial.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace stencil {
namespace {
using test::HostField;

// Grid spacing differs per direction so that a wrong per-direction scaling shows.
constexpr double kH[3] = {0.11, 0.13, 0.07};

double coord(int index, int radius, int n, int axis) {
    return (index - radius - n / 2) * kH[axis];
}

template <int R>
void check_polynomial_exactness() {
    std::mt19937_64 rng(test::fresh_seed());
    const Layout L(13, 11, 9, R);
    const test::Polynomial poly(2 * R + 1, rng);
    HostField<double> p(L), out(L), pprev(L), vel(L);
    test::fill_random(pprev, rng);
    test::fill_random(vel, rng, 0.1, 0.3);
    auto X = [&](int i) { return coord(i, R, L.nx, 0); };
    auto Y = [&](int j) { return coord(j, R, L.ny, 1); };
    auto Z = [&](int k) { return coord(k, R, L.nz, 2); };
    double max_value = 0;
    const Box all = L.padded();
    for (int k = all.z0; k < all.z1; ++k)
        for (int j = all.y0; j < all.y1; ++j)
            for (int i = all.x0; i < all.x1; ++i) {
                p(i, j, k) = poly.value(X(i), Y(j), Z(k));
                max_value = std::max(max_value, std::fabs(p(i, j, k)));
            }
    const auto c = make_coefficients<R, double>(kH[0], kH[1], kH[2]);
    double weight_sum = 0;
    for (int r = 0; r <= R; ++r)
        weight_sum += 2 * (std::fabs(c.x[r]) + std::fabs(c.y[r]) + std::fabs(c.z[r]));
    // Rounding bound: the stencil sums terms of size up to |w| * max|p|.
    const double tolerance = 1e3 * 2.2e-16 * weight_sum * max_value;
    const Box box = L.interior();

    auto check_axis = [&](Axis axis, int a, const double(&w)[R + 1]) {
        host_second_derivative<R, double>(axis, p.cview(), out.view(), box, w);
        for (int k = box.z0; k < box.z1; ++k)
            for (int j = box.y0; j < box.y1; ++j)
                for (int i = box.x0; i < box.x1; ++i)
                    ASSERT_NEAR(out(i, j, k), poly.second(a, X(i), Y(j), Z(k)), tolerance)
                        << "axis " << a << " at " << i << "," << j << "," << k;
    };
    check_axis(Axis::X, 0, c.x);
    check_axis(Axis::Y, 1, c.y);
    check_axis(Axis::Z, 2, c.z);
    host_laplacian<R, double>(p.cview(), out.view(), box, c);
    for (int k = box.z0; k < box.z1; ++k)
        for (int j = box.y0; j < box.y1; ++j)
            for (int i = box.x0; i < box.x1; ++i)
                ASSERT_NEAR(out(i, j, k), poly.laplacian(X(i), Y(j), Z(k)), tolerance);

    HostField<double> before = pprev;
    host_wave_step<R, double>(p.cview(), pprev.view(), vel.cview(), box, c, Sponge{});
    for (int k = box.z0; k < box.z1; ++k)
        for (int j = box.y0; j < box.y1; ++j)
            for (int i = box.x0; i < box.x1; ++i) {
                const double expected = 2 * p(i, j, k) - before(i, j, k) +
                                        vel(i, j, k) * poly.laplacian(X(i), Y(j), Z(k));
                ASSERT_NEAR(pprev(i, j, k), expected, tolerance);
            }
}

TEST(HostOperators, ExactOnPolynomialsOfDegree2RPlus1) {
    check_polynomial_exactness<1>();
    check_polynomial_exactness<2>();
    check_polynomial_exactness<3>();
    check_polynomial_exactness<4>();
    check_polynomial_exactness<5>();
    check_polynomial_exactness<6>();
    check_polynomial_exactness<7>();
    check_polynomial_exactness<8>();
}

// Max error of the Laplacian of sin(2 pi x + 0.3) sin(2 pi y + 0.7) sin(2 pi z + 1.1)
// on [0,1)^3 with n cells per direction.
template <int R>
double laplacian_error(int n) {
    const double h = 1.0 / n, kw = 2 * M_PI;
    const Layout L(n, n, n, R);
    HostField<double> f(L), out(L);
    auto x = [&](int i) { return (i - R) * h; };
    const Box all = L.padded();
    for (int k = all.z0; k < all.z1; ++k)
        for (int j = all.y0; j < all.y1; ++j)
            for (int i = all.x0; i < all.x1; ++i)
                f(i, j, k) = std::sin(kw * x(i) + 0.3) * std::sin(kw * x(j) + 0.7) *
                             std::sin(kw * x(k) + 1.1);
    host_laplacian<R, double>(f.cview(), out.view(), L.interior(),
                              make_coefficients<R, double>(h, h, h));
    double error = 0;
    const Box box = L.interior();
    for (int k = box.z0; k < box.z1; ++k)
        for (int j = box.y0; j < box.y1; ++j)
            for (int i = box.x0; i < box.x1; ++i)
                error = std::max(error, std::fabs(out(i, j, k) + 3 * kw * kw * f(i, j, k)));
    return error;
}

template <int R>
void check_order() {
    const double coarse = laplacian_error<R>(16), fine = laplacian_error<R>(32);
    const double order = std::log2(coarse / fine);
    EXPECT_NEAR(order, 2.0 * R, 0.3) << "R=" << R << " errors " << coarse << " -> " << fine;
}

TEST(HostOperators, ConvergenceOrderIs2R) {
    check_order<1>();
    check_order<2>();
    check_order<3>();
    check_order<4>();
}

template <int R>
void check_untouched_outside(const Box& box) {
    std::mt19937_64 rng(test::fresh_seed());
    const Layout L(21, 17, 15, R);
    HostField<float> in(L), out(L, test::poison_float()), vel(L);
    test::fill_random(in, rng);
    test::fill_random(vel, rng, 0.1, 0.3);
    const auto c = make_coefficients<R, float>(1, 1, 1);
    auto check = [&](const char* what) {
        const Box all = L.padded();
        for (int k = all.z0; k < all.z1; ++k)
            for (int j = all.y0; j < all.y1; ++j)
                for (int i = all.x0; i < all.x1; ++i)
                    ASSERT_EQ(test::is_poison(out(i, j, k)), !box.contains(i, j, k))
                        << what << " at " << i << "," << j << "," << k;
        std::fill(out.storage.begin(), out.storage.end(), test::poison_float());
    };
    host_second_derivative<R, float>(Axis::X, in.cview(), out.view(), box, c.x);
    check("d2x");
    host_second_derivative<R, float>(Axis::Y, in.cview(), out.view(), box, c.y);
    check("d2y");
    host_second_derivative<R, float>(Axis::Z, in.cview(), out.view(), box, c.z);
    check("d2z");
    host_laplacian<R, float>(in.cview(), out.view(), box, c);
    check("laplacian");
    // The wave update works in place: p_prev is poison outside the box, random inside.
    for (int k = box.z0; k < box.z1; ++k)
        for (int j = box.y0; j < box.y1; ++j)
            for (int i = box.x0; i < box.x1; ++i)
                out(i, j, k) = 0.5f;
    host_wave_step<R, float>(in.cview(), out.view(), vel.cview(), box, c, Sponge{});
    check("wave");
}

// The wrap (--periodic) against functions periodic on the grid: for
// f = sin(theta x + phase) the order-2R Laplacian is exactly
// f * (w0 + 2 sum_r w_r cos(theta r h)), with no truncation error, so the
// only error left is rounding. Each axis has its own wavenumber and spacing.
template <int R>
void check_periodic_wrap() {
    const int n[3] = {12, 10, 14};
    const Layout L(n[0], n[1], n[2], R);
    const double h[3] = {0.11, 0.13, 0.07};
    const double theta[3] = {2 * M_PI * 2 / (n[0] * h[0]), 2 * M_PI * 3 / (n[1] * h[1]),
                             2 * M_PI * 1 / (n[2] * h[2])};
    const auto c = make_coefficients<R, double>(h[0], h[1], h[2]);
    const double* w[3] = {c.x, c.y, c.z};
    double symbol[3];
    for (int a = 0; a < 3; ++a) {
        symbol[a] = w[a][0];
        for (int r = 1; r <= R; ++r)
            symbol[a] += 2 * w[a][r] * std::cos(theta[a] * r * h[a]);
    }
    auto term = [&](int a, int index) { return std::sin(theta[a] * (index - R) * h[a] + 0.3 * a); };
    HostField<double> f(L), out(L);
    const Box box = L.interior();
    for (int k = box.z0; k < box.z1; ++k)
        for (int j = box.y0; j < box.y1; ++j)
            for (int i = box.x0; i < box.x1; ++i)
                f(i, j, k) = term(0, i) + term(1, j) + term(2, k);
    for (const bool wrapped : {false, true}) {
        if (wrapped) host_wrap_halo(f.view(), {true, true, true});
        host_laplacian<R, double>(f.cview(), out.view(), box, c);
        double error = 0;
        for (int k = box.z0; k < box.z1; ++k)
            for (int j = box.y0; j < box.y1; ++j)
                for (int i = box.x0; i < box.x1; ++i) {
                    const double exact =
                        symbol[0] * term(0, i) + symbol[1] * term(1, j) + symbol[2] * term(2, k);
                    error = std::max(error, std::fabs(out(i, j, k) - exact));
                }
        if (wrapped)
            EXPECT_LT(error, 1e-9) << "R=" << R;
        else // the zero halo is no wrap: the test can tell
            EXPECT_GT(error, 1e-3) << "R=" << R;
    }
}

TEST(HostOperators, PeriodicWrapIsExactOnPeriodicFunctions) {
    check_periodic_wrap<1>();
    check_periodic_wrap<2>();
    check_periodic_wrap<3>();
    check_periodic_wrap<4>();
    check_periodic_wrap<5>();
    check_periodic_wrap<6>();
    check_periodic_wrap<7>();
    check_periodic_wrap<8>();
}

TEST(HostOperators, CellsOutsideTheBoxAreUntouched) {
    check_untouched_outside<1>(Box{4, 17, 2, 9, 3, 11});
    check_untouched_outside<4>(Box{5, 6, 4, 20, 4, 5});
    check_untouched_outside<8>(Box{11, 25, 8, 25, 8, 23});
}

} // namespace
} // namespace stencil
