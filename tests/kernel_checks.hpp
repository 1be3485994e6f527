// The kernel tests' checks: a variant's output or the wave update against
// a host reference in a wider type, on the awkward geometries, with a
// failure naming the box of offending cells (tests/test_kernels.cpp).
#pragma once

#include "device_field.hpp"
#include "host_operators.hpp"
#include "stencil.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>

namespace stencil::test::kernels {

// The reference's type: wider than the kernel's.
template <class T>
using Wide = std::conditional_t<std::is_same_v<T, float>, double, long double>;

// max |result - reference| / max |reference| over the box.
template <class T>
constexpr double kTolerance = std::is_same_v<T, float> ? 1e-5 : 1e-12;

template <class T>
HostField<Wide<T>> widen(const HostField<T>& f) {
    HostField<Wide<T>> d(f.layout);
    std::copy(f.storage.begin(), f.storage.end(), d.storage.begin());
    return d;
}

// The reference for a variant: the sum of the second derivatives along its axes.
template <int R, class W>
HostField<W> reference(Variant v, const HostField<W>& in, const Box& box) {
    const auto c = make_coefficients<R, W>(1.0, 1.0, 1.0);
    HostField<W> out(in.layout), part(in.layout);
    const std::string axes = variant_axes(v);
    if (axes == "xyz") {
        host_laplacian<R, W>(in.cview(), out.view(), box, c);
        return out;
    }
    for (char a : axes) {
        const Axis axis = a == 'x' ? Axis::X : a == 'y' ? Axis::Y : Axis::Z;
        host_second_derivative<R, W>(axis, in.cview(), part.view(), box,
                                     a == 'x'   ? c.x
                                     : a == 'y' ? c.y
                                                : c.z);
        for (int k = box.z0; k < box.z1; ++k)
            for (int j = box.y0; j < box.y1; ++j)
                for (int i = box.x0; i < box.x1; ++i)
                    out(i, j, k) += part(i, j, k);
    }
    return out;
}

// Cells that break a rule, and the smallest box holding them: where a
// failing kernel went wrong, not only how often.
struct Offenders {
    long long count = 0;
    int lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
    void add(int i, int j, int k) {
        const int c[3] = {i, j, k};
        for (int a = 0; a < 3; ++a) {
            lo[a] = count ? std::min(lo[a], c[a]) : c[a];
            hi[a] = count ? std::max(hi[a], c[a]) : c[a];
        }
        ++count;
    }
    std::string where() const {
        std::string s;
        for (int a = 0; a < 3; ++a)
            s += std::string(a ? ", " : " at ") + "xyz"[a] + " " + std::to_string(lo[a]) + ".." +
                 std::to_string(hi[a]);
        return count ? s : "";
    }
};

// Checks the box against the reference and every other cell against the poison.
template <class T>
void expect_result(const HostField<T>& got, const HostField<Wide<T>>& ref, const Box& box,
                   const std::string& what) {
    long double max_error = 0, max_ref = 0;
    Offenders outside_written, inside_unwritten;
    const Box all = got.layout.padded();
    for (int k = all.z0; k < all.z1; ++k)
        for (int j = all.y0; j < all.y1; ++j)
            for (int i = all.x0; i < all.x1; ++i) {
                const T g = got(i, j, k);
                if (!box.contains(i, j, k)) {
                    if (!test::is_poison(g)) outside_written.add(i, j, k);
                    continue;
                }
                if (test::is_poison(g)) inside_unwritten.add(i, j, k);
                const long double e = std::fabs((long double)g - (long double)ref(i, j, k));
                max_error = std::isnan(e) ? INFINITY : std::max(max_error, e);
                max_ref = std::max(max_ref, std::fabs((long double)ref(i, j, k)));
            }
    EXPECT_EQ(outside_written.count, 0)
        << what << ": cells outside the box were written" << outside_written.where();
    EXPECT_EQ(inside_unwritten.count, 0)
        << what << ": cells inside the box were not written" << inside_unwritten.where();
    EXPECT_LT(double(max_error / max_ref), kTolerance<T>)
        << what << ": max error " << double(max_error) << ", max |ref| " << double(max_ref);
}

struct Geometry {
    const char* name;
    int nx, ny, nz; // interior of the array
    int dx, dy, dz; // box start, relative to the first interior cell
    int bx, by, bz; // box size; 0 means up to the end of the interior
    LaunchShape shape;
};

inline Box box_of(const Geometry& g, int R) {
    const int x0 = R + g.dx, y0 = R + g.dy, z0 = R + g.dz;
    return {x0, g.bx ? x0 + g.bx : R + g.nx, y0, g.by ? y0 + g.by : R + g.ny,
            z0, g.bz ? z0 + g.bz : R + g.nz};
}

const Geometry kGeometries[] = {
    // The awkward case: x0 = R+3, 67 x 45 x 33 inside a larger array.
    {"offset_67x45x33", 80, 60, 50, 3, 2, 1, 67, 45, 33, LaunchShape{}},
    {"whole_37x29x23", 37, 29, 23, 0, 0, 0, 0, 0, 0, LaunchShape{}},
    // Blocks one row high (R > block height) and three groups wide, short z walks.
    {"tiny_blocks", 41, 19, 17, 1, 2, 3, 37, 13, 11, LaunchShape{3, 1, 5}},
    {"odd_blocks", 50, 40, 30, 5, 0, 2, 33, 40, 27, LaunchShape{24, 5, 7}},
    // A boundary slab of an x split, 4 cells wide: the wave kernel fits its block to it.
    {"x_slab", 60, 50, 40, 5, 0, 0, 4, 50, 40, LaunchShape{}},
};

template <int R, class T>
void check_derivative(Variant v, const Geometry& g) {
    SCOPED_TRACE(testing::Message()
                 << variant_name(v) << " R=" << R << " " << precision_name(precision_of<T>()) << " "
                 << g.name << " rows " << g.shape.rows);
    const std::uint64_t seed = test::fresh_seed();
    SCOPED_TRACE(testing::Message() << "seed " << seed);
    std::mt19937_64 rng(seed);
    const Layout L(g.nx, g.ny, g.nz, R);
    const Box box = box_of(g, R);
    HostField<T> in(L), out(L, test::poison<T>());
    test::fill_random(in, rng);
    DeviceField<T> d_in(in), d_out(out);
    Stream stream;
    launch_derivative<R, T>(v, d_in.view(), d_out.view(), box, make_coefficients<R, T>(1, 1, 1),
                            stream, g.shape);
    stream.synchronize();
    d_out.read_into(out);
    expect_result(out, reference<R>(v, widen(in), box), box, variant_name(v));
}

// A sponge over the array's interior, as one rank owning the whole grid.
inline Sponge test_sponge(const Layout& L) {
    Sponge sponge;
    sponge.width = 6;
    sponge.strength = 0.3f;
    sponge.halo = L.halo;
    sponge.extent[0] = L.nx, sponge.extent[1] = L.ny, sponge.extent[2] = L.nz;
    return sponge;
}

template <int R, class T>
void check_wave(const Geometry& g) {
    SCOPED_TRACE(testing::Message()
                 << "wave R=" << R << " " << precision_name(precision_of<T>()) << " " << g.name
                 << " rows " << g.shape.rows << " planes ahead " << g.shape.ahead);
    const std::uint64_t seed = test::fresh_seed();
    SCOPED_TRACE(testing::Message() << "seed " << seed);
    std::mt19937_64 rng(seed);
    const Layout L(g.nx, g.ny, g.nz, R);
    const Box box = box_of(g, R);
    HostField<T> p(L), prev(L, test::poison<T>()), vel(L);
    test::fill_random(p, rng);
    test::fill_random(vel, rng, 0.05, 0.2);
    std::uniform_real_distribution<double> dist(-1, 1);
    for (int k = box.z0; k < box.z1; ++k)
        for (int j = box.y0; j < box.y1; ++j)
            for (int i = box.x0; i < box.x1; ++i)
                prev(i, j, k) = T(dist(rng));
    const Sponge sponge = test_sponge(L);
    using W = Wide<T>;
    HostField<W> expected = widen(prev);
    host_wave_step<R, W>(widen(p).cview(), expected.view(), widen(vel).cview(), box,
                         make_coefficients<R, W>(1, 1, 1), sponge);
    DeviceField<T> d_p(p), d_prev(prev), d_vel(vel);
    Stream stream;
    launch_wave_step<R, T>(d_p.view(), d_prev.view(), d_vel.view(), box,
                           make_coefficients<R, T>(1, 1, 1), sponge, stream, g.shape);
    stream.synchronize();
    d_prev.read_into(prev);
    expect_result(prev, expected, box, "wave");
}

// The geometry with its launch shape's rows replaced: each rows per thread
// a fused kernel is built for runs on the awkward boxes (remainder rows).
inline Geometry with_rows(Geometry g, int rows) {
    g.shape.rows = rows;
    return g;
}

// Whether the wave update launches with two planes of loads in flight in
// shape `t` (zero fields filled) at R and T: where they are built and the
// block prefetches its apron.
template <int R, class T>
bool two_planes_ahead_fit(LaunchShape t) {
    t.ahead = 2;
    return fits(resolve_shape(t, R, precision_of<T>(), FusedKernel::Wave), R, precision_of<T>(),
                FusedKernel::Wave)
        .empty();
}

} // namespace stencil::test::kernels
