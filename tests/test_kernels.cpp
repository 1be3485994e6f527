// Every kernel variant of the built back-end, every radius, against the host
// reference in double on fresh random inputs, on awkward boxes inside larger
// arrays, with the output poisoned to prove exactly the box was written.
// On a GPU back-end without a visible GPU the suite skips, saying so.
#include "device.hpp"
#include "host_operators.hpp"
#include "memory.hpp"
#include "stencil.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>

namespace stencil {
namespace {
using test::HostField;

constexpr double kTolerance = 1e-5; // max |result - reference| / max |reference| over the box

// One field on the device, filled from and read back into a host field.
struct DeviceField {
    Layout layout;
    DeviceArray<float> storage;
    explicit DeviceField(const HostField<float>& h) : layout(h.layout), storage(h.storage.size()) {
        copy_to_device(storage, h.storage.data());
    }
    FieldView<float> view() { return view_of(storage.data(), layout); }
    void read_into(HostField<float>& h) const { copy_to_host(h.storage.data(), storage); }
};

HostField<double> to_double(const HostField<float>& f) {
    HostField<double> d(f.layout);
    std::copy(f.storage.begin(), f.storage.end(), d.storage.begin());
    return d;
}

// The reference for a variant: the sum of the second derivatives along its axes.
template <int R>
HostField<double> reference(Variant v, const HostField<double>& in, const Box& box) {
    const auto c = make_coefficients<R, double>(1.0, 1.0, 1.0);
    HostField<double> out(in.layout), part(in.layout);
    const std::string axes = variant_axes(v);
    if (axes == "xyz") {
        host_laplacian<R, double>(in.cview(), out.view(), box, c);
        return out;
    }
    for (char a : axes) {
        const Axis axis = a == 'x' ? Axis::X : a == 'y' ? Axis::Y : Axis::Z;
        host_second_derivative<R, double>(axis, in.cview(), part.view(), box,
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
void expect_result(const HostField<float>& got, const HostField<double>& ref, const Box& box,
                   const std::string& what) {
    double max_error = 0, max_ref = 0;
    Offenders outside_written, inside_unwritten;
    const Box all = got.layout.padded();
    for (int k = all.z0; k < all.z1; ++k)
        for (int j = all.y0; j < all.y1; ++j)
            for (int i = all.x0; i < all.x1; ++i) {
                const float g = got(i, j, k);
                if (!box.contains(i, j, k)) {
                    if (!test::is_poison(g)) outside_written.add(i, j, k);
                    continue;
                }
                if (test::is_poison(g)) inside_unwritten.add(i, j, k);
                const double e = std::fabs(double(g) - ref(i, j, k));
                max_error = std::isnan(e) ? INFINITY : std::max(max_error, e);
                max_ref = std::max(max_ref, std::fabs(ref(i, j, k)));
            }
    EXPECT_EQ(outside_written.count, 0)
        << what << ": cells outside the box were written" << outside_written.where();
    EXPECT_EQ(inside_unwritten.count, 0)
        << what << ": cells inside the box were not written" << inside_unwritten.where();
    EXPECT_LT(max_error / max_ref, kTolerance)
        << what << ": max error " << max_error << ", max |ref| " << max_ref;
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

template <int R>
void check_derivative(Variant v, const Geometry& g) {
    SCOPED_TRACE(testing::Message() << variant_name(v) << " R=" << R << " " << g.name);
    const std::uint64_t seed = test::fresh_seed();
    SCOPED_TRACE(testing::Message() << "seed " << seed);
    std::mt19937_64 rng(seed);
    const Layout L(g.nx, g.ny, g.nz, R);
    const Box box = box_of(g, R);
    HostField<float> in(L), out(L, test::poison_float());
    test::fill_random(in, rng);
    DeviceField d_in(in), d_out(out);
    Stream stream;
    launch_derivative<R>(v, d_in.view(), d_out.view(), box, make_coefficients<R, float>(1, 1, 1),
                         stream, g.tuning);
    stream.synchronize();
    d_out.read_into(out);
    expect_result(out, reference<R>(v, to_double(in), box), box, variant_name(v));
}

template <int R>
void check_wave(const Geometry& g) {
    SCOPED_TRACE(testing::Message() << "wave R=" << R << " " << g.name);
    const std::uint64_t seed = test::fresh_seed();
    SCOPED_TRACE(testing::Message() << "seed " << seed);
    std::mt19937_64 rng(seed);
    const Layout L(g.nx, g.ny, g.nz, R);
    const Box box = box_of(g, R);
    HostField<float> p(L), prev(L, test::poison_float()), vel(L);
    test::fill_random(p, rng);
    test::fill_random(vel, rng, 0.05, 0.2);
    std::uniform_real_distribution<float> dist(-1, 1);
    for (int k = box.z0; k < box.z1; ++k)
        for (int j = box.y0; j < box.y1; ++j)
            for (int i = box.x0; i < box.x1; ++i)
                prev(i, j, k) = dist(rng);
    // A sponge over the array's interior, as one rank owning the whole grid.
    Sponge sponge;
    sponge.width = 6;
    sponge.strength = 0.3f;
    sponge.radius = R;
    sponge.extent[0] = g.nx, sponge.extent[1] = g.ny, sponge.extent[2] = g.nz;

    HostField<double> expected = to_double(prev);
    host_wave_step<R, double>(to_double(p).cview(), expected.view(), to_double(vel).cview(), box,
                              make_coefficients<R, double>(1, 1, 1), sponge);
    DeviceField d_p(p), d_prev(prev), d_vel(vel);
    Stream stream;
    launch_wave_step<R>(d_p.view(), d_prev.view(), d_vel.view(), box,
                        make_coefficients<R, float>(1, 1, 1), sponge, stream, g.tuning);
    stream.synchronize();
    d_prev.read_into(prev);
    expect_result(prev, expected, box, "wave");
}

class Kernels : public testing::TestWithParam<std::tuple<Variant, int>> {
protected:
    void SetUp() override {
        if (STENCIL_HAS_GPU && device_count() == 0)
            GTEST_SKIP() << "no GPU visible: " << backend_name() << " kernel tests skipped";
    }
};

TEST_P(Kernels, MatchHostReferenceAndWriteExactlyTheBox) {
    const Variant variant = std::get<0>(GetParam());
    const int radius = std::get<1>(GetParam());
    for (const Geometry& g : kGeometries)
        dispatch_radius(radius, [&](auto r) { check_derivative<decltype(r)::value>(variant, g); });
}

INSTANTIATE_TEST_SUITE_P(AllVariants, Kernels,
                         testing::Combine(testing::ValuesIn(available_variants()),
                                          testing::Range(1, 9)),
                         [](const auto& info) {
                             return std::string(variant_name(std::get<0>(info.param))) + "_R" +
                                    std::to_string(std::get<1>(info.param));
                         });

class WaveKernel : public testing::TestWithParam<int> {
protected:
    void SetUp() override {
        if (STENCIL_HAS_GPU && device_count() == 0)
            GTEST_SKIP() << "no GPU visible: " << backend_name() << " wave kernel tests skipped";
    }
};

TEST_P(WaveKernel, MatchesHostReferenceWithSponge) {
    for (const Geometry& g : kGeometries)
        dispatch_radius(GetParam(), [&](auto r) { check_wave<decltype(r)::value>(g); });
}

// The z window splits the work, never the arithmetic: the window chosen per
// box (64 or 32 planes here on an H200) gives the same bits as 16 and 64.
TEST_P(WaveKernel, WindowChangesNoBit) {
    if (!STENCIL_HAS_GPU) GTEST_SKIP() << "the HOST back-end has no launch shape";
    dispatch_radius(GetParam(), [&](auto r) {
        constexpr int R = decltype(r)::value;
        const Layout L(256, 256, 256, R);
        const Box box = L.interior();
        std::mt19937_64 rng(test::fresh_seed());
        HostField<float> p(L), prev(L), vel(L);
        test::fill_random(p, rng);
        test::fill_random(prev, rng);
        test::fill_random(vel, rng, 0.05, 0.2);
        DeviceField d_p(p), d_vel(vel);
        const auto c = make_coefficients<R, float>(1, 1, 1);
        auto run = [&](const Tuning& t) {
            DeviceField d_prev(prev);
            Stream stream;
            launch_wave_step<R>(d_p.view(), d_prev.view(), d_vel.view(), box, c, Sponge{}, stream,
                                t);
            stream.synchronize();
            HostField<float> out(L);
            d_prev.read_into(out);
            return out.storage;
        };
        const int chosen = wave_tuning<R>(Tuning{}, L, box).window;
        SCOPED_TRACE(testing::Message() << "R=" << R << ", window chosen " << chosen);
        const auto reference = run(Tuning{0, 0, 16});
        EXPECT_TRUE(reference == run(Tuning{})) << "chosen window";
        for (const int window : {1, 2, 4, 8, 64}) // short ones fill the device on small boxes
            EXPECT_TRUE(reference == run(Tuning{0, 0, window})) << "window " << window;
    });
}

INSTANTIATE_TEST_SUITE_P(AllRadii, WaveKernel, testing::Range(1, 9),
                         [](const auto& info) { return "R" + std::to_string(info.param); });

// 512^3, the benchmark's size, for the kernels the mini-app and the benchmark
// lean on. Only on a GPU: the double reference costs too much for CI's CPUs.
class LargeGrid : public testing::TestWithParam<int> {
protected:
    void SetUp() override {
        if (!STENCIL_HAS_GPU || device_count() == 0)
            GTEST_SKIP() << "512^3 checks run on a GPU back-end with a visible GPU only";
    }
};

TEST_P(LargeGrid, FusedKernelsAt512Cubed) {
    const Geometry g{"whole_512", 512, 512, 512, 0, 0, 0, 0, 0, 0, Tuning{}};
    dispatch_radius(GetParam(), [&](auto r) {
        constexpr int R = decltype(r)::value;
        check_derivative<R>(Variant::FusedXYZ, g);
        check_wave<R>(g);
    });
}

INSTANTIATE_TEST_SUITE_P(Radii, LargeGrid, testing::Values(1, 4, 8),
                         [](const auto& info) { return "R" + std::to_string(info.param); });

} // namespace
} // namespace stencil
