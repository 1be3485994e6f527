// The sponge's profile (kernels/sponge.hpp), which the kernels and the host
// reference share: Sponge::reaches, which lets the wave kernel's blocks skip
// eta where the sponge cannot damp, is false for a range of cells exactly
// where every cell's eta has no term along that axis (checked against eta
// itself, cell by cell); each term is strength (n/W)^2 to a few roundings;
// and a cell's eta depends on its global index alone, whatever the rank's
// offset and halo.
#include "sponge.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

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

// eta of the cell at local index `local` along d, the others mid-axis.
template <class T = double>
T eta_along(const Sponge& s, int d, int local) {
    int cell[3] = {s.halo + 500, s.halo + 500, s.halo + 500};
    cell[d] = local;
    return s.eta<T>(cell[0], cell[1], cell[2]);
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
                                    damped = damped || eta_along(s, d, c) != 0.0;
                                ASSERT_EQ(reaches(s, d, lo, hi), damped)
                                    << "axis " << d << " width " << width << " extent " << extent
                                    << " offset " << offset << " halo " << halo << " cells [" << lo
                                    << ", " << hi << ")";
                                ++ranges;
                            }
                    }
    EXPECT_GT(ranges, 0);
}

// Each term against strength (n/W)^2 in long double: within two roundings
// of T, zero at and past the sponge's inner edge, largest at the boundary.
template <class T>
void expect_profile(int width) {
    const int extent = 3 * width + 5;
    Sponge s = sponge_along(0, width, extent, 0, 0);
    s.strength = 0.3f;
    for (int g = 0; g < extent; ++g) {
        const int from_edge = std::min(g, extent - 1 - g);
        const long double n = from_edge < width ? width - from_edge : 0;
        const long double exact = (long double)s.strength * (n / width) * (n / width);
        const T got = s.term<T>(0, g);
        EXPECT_LE(std::fabs((long double)got - exact),
                  2 * std::numeric_limits<T>::epsilon() * exact)
            << "width " << width << " cell " << g;
        EXPECT_EQ(got == T(0), from_edge >= width) << "width " << width << " cell " << g;
    }
}

TEST(Sponge, TermsAreTheQuadraticProfile) {
    for (int width : {1, 2, 8, 16, 32, 100}) {
        expect_profile<float>(width);
        expect_profile<double>(width);
    }
}

TEST(Sponge, EtaDependsOnTheGlobalCellAlone) {
    Sponge whole;
    whole.width = 5, whole.strength = 0.2f;
    whole.extent[0] = 23, whole.extent[1] = 19, whole.extent[2] = 17;
    Sponge part = whole; // a rank at (7, 4, 9) with a halo of 3
    part.offset[0] = 7, part.offset[1] = 4, part.offset[2] = 9, part.halo = 3;
    for (int k = 0; k < 8; ++k)
        for (int j = 0; j < 10; ++j)
            for (int i = 0; i < 12; ++i)
                ASSERT_EQ(part.eta<float>(i + 3, j + 3, k + 3),
                          whole.eta<float>(i + 7, j + 4, k + 9))
                    << i << "," << j << "," << k;
}

} // namespace
} // namespace stencil
