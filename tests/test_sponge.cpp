// The sponge's profile (kernels/sponge.hpp), which the kernels and the host
// reference share: Sponge::reaches, which lets the wave kernel's blocks skip
// the damping where the sponge cannot damp, is false for a range of cells
// exactly where no cell is damped (checked against damp() itself, cell by
// cell); the factors are 1/(1 + eta) and eta of the quadratic
// eta to a few roundings; a cell's damping follows its depth, the deepest
// of its axes; the tables hold what damp() computes; and a cell's damping
// depends on its global index alone, whatever the rank's offset and halo.
#include "sponge.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace stencil {
namespace {

// A sponge whose axis d is the one tested; the other two axes are so long
// that the cell chosen on them lies far from both of their edges.
Sponge sponge_along(int d, int width, int extent, int offset, int halo) {
    Sponge s;
    s.width = width;
    s.strength = 1.0f;
    s.halo = halo;
    for (int a = 0; a < 3; ++a) {
        s.extent[a] = a == d ? extent : 1000;
        s.offset[a] = a == d ? offset : 0;
    }
    return s;
}

// Whether damp() changes the cell at local index `local` along d, the
// others mid-axis: with strength 1 every damped cell keeps less than 1.
bool damped_along(const Sponge& s, int d, int local) {
    int cell[3] = {s.halo + 500, s.halo + 500, s.halo + 500};
    cell[d] = local;
    return s.damp(1.0, 0.0, cell[0], cell[1], cell[2]) != 1.0;
}

// Sponge::reaches for the axis d, a template argument there.
bool reaches(const Sponge& s, int d, int lo, int hi) {
    return d == 0 ? s.reaches<0>(lo, hi) : d == 1 ? s.reaches<1>(lo, hi) : s.reaches<2>(lo, hi);
}

TEST(Sponge, ReachesIsFalseExactlyWhereNoCellIsDamped) {
    constexpr int kCells = 24; // local indices 0..23: halo, interior and beyond
    int ranges = 0;
    for (int d = 0; d < 3; ++d)
        for (int width : {0, 1, 3, 6})
            for (int extent : {1, 2, 7, 12, 40})
                for (int offset : {0, 5})
                    for (int halo : {0, 4}) {
                        const Sponge s = sponge_along(d, width, extent, offset, halo);
                        for (int lo = 0; lo <= kCells; ++lo)
                            for (int hi = lo; hi <= kCells; ++hi) {
                                bool damped = false;
                                for (int c = lo; c < hi; ++c)
                                    damped = damped || damped_along(s, d, c);
                                ASSERT_EQ(reaches(s, d, lo, hi), damped)
                                    << "axis " << d << " width " << width << " extent " << extent
                                    << " offset " << offset << " halo " << halo << " cells [" << lo
                                    << ", " << hi << ")";
                                ++ranges;
                            }
                    }
    EXPECT_GT(ranges, 0);
}

// Each depth's factors against 1/(1 + eta) and eta in long
// double, eta = strength (n/W)^2: within a few roundings of T; and damp()
// of a cell n deep is keep * (undamped + eta * p_prev).
template <class T>
void expect_profile(int width) {
    const int extent = 3 * width + 5;
    Sponge s = sponge_along(0, width, extent, 0, 0);
    s.strength = 0.3f;
    const T tolerance = 4 * std::numeric_limits<T>::epsilon();
    for (int g = 0; g < extent; ++g) {
        const int from_edge = std::min(g, extent - 1 - g);
        const int n = from_edge < width ? width - from_edge : 0;
        const long double r = (long double)n / width;
        const long double eta = (long double)s.strength * r * r;
        const T undamped = T(0.75), prev = T(-0.5);
        const T got = s.damp(undamped, prev, g, 500, 500);
        if (n == 0) {
            EXPECT_EQ(got, undamped) << "width " << width << " cell " << g;
            continue;
        }
        const Damping<T> f = s.factors<T>(n);
        EXPECT_NEAR(f.keep, 1 / (1 + eta), tolerance) << "width " << width << " depth " << n;
        EXPECT_NEAR(f.eta, eta, tolerance) << "width " << width << " depth " << n;
        const volatile T taken = f.eta * prev, sum = undamped + taken; // each rounded
        EXPECT_EQ(got, f.keep * sum) << "width " << width << " cell " << g;
        EXPECT_LT(f.keep, T(1)) << "width " << width << " depth " << n;
    }
}

TEST(Sponge, FactorsAreThoseOfTheQuadraticProfile) {
    for (int width : {1, 2, 8, 16, 32, 100}) {
        expect_profile<float>(width);
        expect_profile<double>(width);
    }
}

// A cell in an edge or a corner of the sponge is damped as deep as its
// deepest axis takes it: as the cell on that axis alone.
TEST(Sponge, ACornerIsDampedByItsDeepestAxis) {
    Sponge s;
    s.width = 6, s.strength = 0.4f;
    s.extent[0] = 30, s.extent[1] = 31, s.extent[2] = 32;
    for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 8; ++j)
            for (int k = 0; k < 8; ++k) {
                const int deepest = std::min({i, j, k}); // the nearest face, by distance
                const int alone[3] = {deepest, 15, 16};
                ASSERT_EQ(s.damp(1.0f, 2.0f, i, j, k),
                          s.damp(1.0f, 2.0f, alone[0], alone[1], alone[2]))
                    << i << "," << j << "," << k;
            }
}

// The tables give what damp() computes without them, bit for bit, in both
// precisions (on the HOST back-end the table's memory is the host's).
TEST(Sponge, TablesHoldWhatDampComputes) {
    Sponge s;
    s.width = 9, s.strength = 0.25f;
    s.extent[0] = s.extent[1] = s.extent[2] = 40;
    std::vector<Damping<float>> t32(10);
    std::vector<Damping<double>> t64(10);
    for (int n = 1; n <= 9; ++n)
        t32[std::size_t(n)] = damping_at<float>(n, 9, 0.25f),
        t64[std::size_t(n)] = damping_at<double>(n, 9, 0.25f);
    Sponge tabled = s;
    tabled.table32 = t32.data(), tabled.table64 = t64.data();
    for (int i = -3; i < 12; ++i) {
        ASSERT_EQ(tabled.damp(0.3f, -0.7f, i, 20, 20), s.damp(0.3f, -0.7f, i, 20, 20)) << i;
        ASSERT_EQ(tabled.damp(0.3, -0.7, i, 20, 20), s.damp(0.3, -0.7, i, 20, 20)) << i;
    }
    // And the tables are read: a planted factor changes the damped cell.
    t32[3].keep = 0.5f;
    EXPECT_NE(tabled.damp(0.3f, -0.7f, 6, 20, 20), s.damp(0.3f, -0.7f, 6, 20, 20));
}

TEST(Sponge, DampingDependsOnTheGlobalCellAlone) {
    Sponge whole;
    whole.width = 5, whole.strength = 0.2f;
    whole.extent[0] = 23, whole.extent[1] = 19, whole.extent[2] = 17;
    Sponge part = whole; // a rank at (7, 4, 9) with a halo of 3
    part.offset[0] = 7, part.offset[1] = 4, part.offset[2] = 9, part.halo = 3;
    for (int k = 0; k < 8; ++k)
        for (int j = 0; j < 10; ++j)
            for (int i = 0; i < 12; ++i)
                ASSERT_EQ(part.damp(1.0f, 0.5f, i + 3, j + 3, k + 3),
                          whole.damp(1.0f, 0.5f, i + 7, j + 4, k + 9))
                    << i << "," << j << "," << k;
}

} // namespace
} // namespace stencil
