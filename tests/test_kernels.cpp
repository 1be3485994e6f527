// Every kernel variant of the built back-end, every radius, both
// precisions, against a host reference computed in a wider type (double for
// float, long double for double) on fresh random inputs, on awkward boxes
// inside larger arrays, with the output poisoned to prove exactly the box
// was written. On a GPU back-end without a visible GPU the suite skips,
// saying so.
#include "device.hpp"
#include "device_field.hpp"
#include "host_operators.hpp"
#include "memory.hpp"
#include "series.hpp"
#include "stencil.hpp"
#include "test_support.hpp"
#include "tune_on_device.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>
#include <type_traits>

namespace stencil {
namespace {
using test::DeviceField;
using test::HostField;

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
    Tuning tuning;
};

Box box_of(const Geometry& g, int R) {
    const int x0 = R + g.dx, y0 = R + g.dy, z0 = R + g.dz;
    return {x0, g.bx ? x0 + g.bx : R + g.nx, y0, g.by ? y0 + g.by : R + g.ny,
            z0, g.bz ? z0 + g.bz : R + g.nz};
}

const Geometry kGeometries[] = {
    // The issue's awkward case: x0 = R+3, 67 x 45 x 33 inside a larger array.
    {"offset_67x45x33", 80, 60, 50, 3, 2, 1, 67, 45, 33, Tuning{}},
    {"whole_37x29x23", 37, 29, 23, 0, 0, 0, 0, 0, 0, Tuning{}},
    // Blocks one row high (R > block height) and three groups wide, short z walks.
    {"tiny_blocks", 41, 19, 17, 1, 2, 3, 37, 13, 11, Tuning{3, 1, 5}},
    {"odd_blocks", 50, 40, 30, 5, 0, 2, 33, 40, 27, Tuning{24, 5, 7}},
    // A boundary slab of an x split, 4 cells wide: the wave kernel fits its block to it.
    {"x_slab", 60, 50, 40, 5, 0, 0, 4, 50, 40, Tuning{}},
};

template <int R, class T>
void check_derivative(Variant v, const Geometry& g) {
    SCOPED_TRACE(testing::Message()
                 << variant_name(v) << " R=" << R << " " << precision_name(precision_of<T>()) << " "
                 << g.name << " rows " << g.tuning.rows);
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
                            stream, g.tuning);
    stream.synchronize();
    d_out.read_into(out);
    expect_result(out, reference<R>(v, widen(in), box), box, variant_name(v));
}

// A sponge over the array's interior, as one rank owning the whole grid.
Sponge test_sponge(const Layout& L) {
    Sponge sponge;
    sponge.width = 6;
    sponge.strength = 0.3f;
    sponge.radius = L.radius;
    sponge.extent[0] = L.nx, sponge.extent[1] = L.ny, sponge.extent[2] = L.nz;
    return sponge;
}

template <int R, class T>
void check_wave(const Geometry& g) {
    SCOPED_TRACE(testing::Message() << "wave R=" << R << " " << precision_name(precision_of<T>())
                                    << " " << g.name << " rows " << g.tuning.rows);
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
                           make_coefficients<R, T>(1, 1, 1), sponge, stream, g.tuning);
    stream.synchronize();
    d_prev.read_into(prev);
    expect_result(prev, expected, box, "wave");
}

// The geometry with its launch shape's rows replaced: each rows per thread
// a fused kernel is built for runs on the awkward boxes (remainder rows).
Geometry with_rows(Geometry g, int rows) {
    g.tuning.rows = rows;
    return g;
}

const auto kPrecisions = testing::Values(Precision::FP32, Precision::FP64);

bool uses_rows(Variant v) {
    return v == Variant::FusedXYZ && STENCIL_HAS_GPU;
}

class Kernels : public testing::TestWithParam<std::tuple<Variant, int, Precision>> {
protected:
    void SetUp() override {
        if (STENCIL_HAS_GPU && device_count() == 0)
            GTEST_SKIP() << "no GPU visible: " << backend_name() << " kernel tests skipped";
    }
};

TEST_P(Kernels, MatchHostReferenceAndWriteExactlyTheBox) {
    // (Not structured bindings: C++17 lambdas cannot capture them.)
    const Variant variant = std::get<0>(GetParam());
    const int radius = std::get<1>(GetParam());
    dispatch_precision(std::get<2>(GetParam()), [&](auto zero) {
        using T = decltype(zero);
        dispatch_radius(radius, [&](auto r) {
            constexpr int R = decltype(r)::value;
            for (const Geometry& g : kGeometries) {
                check_derivative<R, T>(variant, g);
                if (!uses_rows(variant) || g.tuning.rows) continue;
                for (int rows = 1; rows <= max_fused_rows(R, FusedKernel::Laplacian); rows *= 2)
                    check_derivative<R, T>(variant, with_rows(g, rows));
            }
        });
    });
}

INSTANTIATE_TEST_SUITE_P(AllVariants, Kernels,
                         testing::Combine(testing::ValuesIn(available_variants()),
                                          testing::Range(1, 9), kPrecisions),
                         [](const auto& info) {
                             return std::string(variant_name(std::get<0>(info.param))) + "_R" +
                                    std::to_string(std::get<1>(info.param)) + "_" +
                                    precision_name(std::get<2>(info.param));
                         });

class WaveKernel : public testing::TestWithParam<std::tuple<int, Precision>> {
protected:
    void SetUp() override {
        if (STENCIL_HAS_GPU && device_count() == 0)
            GTEST_SKIP() << "no GPU visible: " << backend_name() << " wave kernel tests skipped";
    }
};

TEST_P(WaveKernel, MatchesHostReferenceWithSponge) {
    const int radius = std::get<0>(GetParam());
    dispatch_precision(std::get<1>(GetParam()), [&](auto zero) {
        using T = decltype(zero);
        dispatch_radius(radius, [&](auto r) {
            constexpr int R = decltype(r)::value;
            for (const Geometry& g : kGeometries) {
                check_wave<R, T>(g);
                if (!STENCIL_HAS_GPU || g.tuning.rows) continue;
                for (int rows = 1; rows <= max_fused_rows(R, FusedKernel::Wave); rows *= 2)
                    check_wave<R, T>(with_rows(g, rows));
            }
        });
    });
}

// The launch shape splits the work, never the arithmetic: the shape chosen
// per box gives the same bits as every z window, rows per thread and block
// the kernel is built for. The mini-app's decomposition invariance, and any
// tuner's freedom to pick a shape, rest on this.
TEST_P(WaveKernel, LaunchShapeChangesNoBit) {
    if (!STENCIL_HAS_GPU) GTEST_SKIP() << "the HOST back-end has no launch shape";
    const int radius = std::get<0>(GetParam());
    dispatch_precision(std::get<1>(GetParam()), [&](auto zero) {
        using T = decltype(zero);
        dispatch_radius(radius, [&](auto r) {
            constexpr int R = decltype(r)::value;
            const Layout L(200, 150, 120, R);
            const Box box = L.interior();
            std::mt19937_64 rng(test::fresh_seed());
            HostField<T> p(L), prev(L), vel(L);
            test::fill_random(p, rng);
            test::fill_random(prev, rng);
            test::fill_random(vel, rng, 0.05, 0.2);
            DeviceField<T> d_p(p), d_vel(vel);
            const auto c = make_coefficients<R, T>(1, 1, 1);
            const Sponge sponge = test_sponge(L);
            auto run = [&](const Tuning& t) {
                DeviceField<T> d_prev(prev);
                Stream stream;
                launch_wave_step<R, T>(d_p.view(), d_prev.view(), d_vel.view(), box, c, sponge,
                                       stream, t);
                stream.synchronize();
                HostField<T> out(L);
                d_prev.read_into(out);
                return out.storage;
            };
            const Tuning chosen = wave_tuning<R, T>(Tuning{}, L, box);
            SCOPED_TRACE(testing::Message() << "R=" << R << " " << precision_name(precision_of<T>())
                                            << ", window chosen " << chosen.window);
            const auto reference = run(Tuning{0, 0, 16});
            EXPECT_TRUE(reference == run(Tuning{})) << "chosen shape";
            for (const int window : {1, 2, 4, 8, 64}) // short ones fill the device on small boxes
                EXPECT_TRUE(reference == run(Tuning{0, 0, window})) << "window " << window;
            for (int rows = 1; rows <= max_fused_rows(R, FusedKernel::Wave); rows *= 2)
                EXPECT_TRUE(reference == run(Tuning{0, 0, 0, rows})) << "rows " << rows;
            for (const Tuning block : {Tuning{8, 16}, Tuning{32, 4}, Tuning{16, 16}, Tuning{4, 8}})
                EXPECT_TRUE(reference == run(block)) << block.block_x << " x " << block.block_y;
        });
    });
}

INSTANTIATE_TEST_SUITE_P(AllRadii, WaveKernel, testing::Combine(testing::Range(1, 9), kPrecisions),
                         [](const auto& info) {
                             return "R" + std::to_string(std::get<0>(info.param)) + "_" +
                                    precision_name(std::get<1>(info.param));
                         });

// The self-tuner's choice on this GPU passes the same reference test as
// every shape above: the tuner's own bit check against the default is not
// the only guard.
TEST(TunedShape, MatchesHostReference) {
    if (!STENCIL_HAS_GPU || device_count() == 0)
        GTEST_SKIP() << "the tuner times shapes on a GPU back-end with a GPU only";
    Geometry g = kGeometries[0]; // the offset 67 x 45 x 33 box
    const auto tuned = [&](auto r, auto zero, FusedKernel kernel) {
        constexpr int R = decltype(r)::value;
        using T = decltype(zero);
        const Layout L(g.nx, g.ny, g.nz, R);
        const TuneResult result = tune_on_device<R, T>(kernel, L, box_of(g, R), 2000.0);
        SCOPED_TRACE(result.summary());
        g.tuning = result.best;
        if (kernel == FusedKernel::Wave)
            check_wave<R, T>(g);
        else
            check_derivative<R, T>(Variant::FusedXYZ, g);
    };
    tuned(std::integral_constant<int, 4>{}, float{}, FusedKernel::Wave);
    tuned(std::integral_constant<int, 1>{}, double{}, FusedKernel::Wave);
    tuned(std::integral_constant<int, 2>{}, float{}, FusedKernel::Laplacian);
}

// The Laplacian series' steps (GPU only): every step and cells per thread
// against the host reference on the awkward boxes, the remainder rows of
// m = 16 included.
class SeriesKernels : public testing::TestWithParam<Precision> {
protected:
    void SetUp() override {
        if (!STENCIL_HAS_GPU || device_count() == 0)
            GTEST_SKIP() << "the Laplacian series' kernels run on a GPU back-end with a GPU only";
    }
};

TEST_P(SeriesKernels, MatchHostReferenceAndWriteExactlyTheBox) {
#if STENCIL_HAS_GPU
    dispatch_precision(GetParam(), [&](auto zero) {
        using T = decltype(zero);
        for (SeriesStep step : series_steps())
            for (int m : series_cells_per_thread(step))
                for (const Geometry& g : kGeometries) {
                    SCOPED_TRACE(testing::Message() << "series " << series_step_name(step)
                                                    << " m=" << m << " " << g.name);
                    std::mt19937_64 rng(test::fresh_seed());
                    const Layout L(g.nx, g.ny, g.nz, 1);
                    const Box box = box_of(g, 1);
                    HostField<T> in(L), out(L, test::poison<T>());
                    test::fill_random(in, rng);
                    DeviceField<T> d_in(in), d_out(out);
                    Stream stream;
                    launch_series_laplacian<T>(step, m, d_in.view(), d_out.view(), box,
                                               make_coefficients<1, T>(1, 1, 1), stream);
                    stream.synchronize();
                    d_out.read_into(out);
                    expect_result(out, reference<1>(Variant::FusedXYZ, widen(in), box), box,
                                  series_step_name(step));
                }
    });
#endif
}

INSTANTIATE_TEST_SUITE_P(BothPrecisions, SeriesKernels, kPrecisions,
                         [](const auto& info) { return std::string(precision_name(info.param)); });

// 512^3, the benchmark's size, for the kernels the mini-app and the benchmark
// lean on. Only on a GPU: the wide reference costs too much for CI's CPUs.
class LargeGrid : public testing::TestWithParam<std::tuple<int, Precision>> {
protected:
    void SetUp() override {
        if (!STENCIL_HAS_GPU || device_count() == 0)
            GTEST_SKIP() << "512^3 checks run on a GPU back-end with a visible GPU only";
    }
};

TEST_P(LargeGrid, FusedKernelsAt512Cubed) {
    const Geometry g{"whole_512", 512, 512, 512, 0, 0, 0, 0, 0, 0, Tuning{}};
    const int radius = std::get<0>(GetParam());
    dispatch_precision(std::get<1>(GetParam()), [&](auto zero) {
        using T = decltype(zero);
        dispatch_radius(radius, [&](auto r) {
            constexpr int R = decltype(r)::value;
            check_derivative<R, T>(Variant::FusedXYZ, g);
            check_wave<R, T>(g);
        });
    });
}

INSTANTIATE_TEST_SUITE_P(Radii, LargeGrid, testing::Combine(testing::Values(1, 4, 8), kPrecisions),
                         [](const auto& info) {
                             return "R" + std::to_string(std::get<0>(info.param)) + "_" +
                                    precision_name(std::get<1>(info.param));
                         });

} // namespace
} // namespace stencil
