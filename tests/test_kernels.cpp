// Every kernel variant of the built back-end, every radius, both
// precisions, against a host reference computed in a wider type (double for
// float, long double for double) on fresh random inputs, on awkward boxes
// inside larger arrays, with the output poisoned to prove exactly the box
// was written. On a GPU back-end without a visible GPU the suite skips,
// saying so.
#include "device.hpp"
#include "device_field.hpp"
#include "field_ops.hpp"
#include "host_operators.hpp"
#include "kernel_checks.hpp"
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
using namespace test::kernels;

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
                if (!uses_rows(variant) || g.shape.rows) continue;
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
                // Both bodies on every box, the cells' windows and the geometry's block.
                for (const WaveBody body : {WaveBody::Tile, WaveBody::Cells})
                    for (const int window : {0, 3}) {
                        Geometry asked = g;
                        asked.shape.body = body, asked.shape.window = window;
                        asked.shape.rows = 0;
                        check_wave<R, T>(asked);
                    }
                if (!STENCIL_HAS_GPU || g.shape.rows) continue;
                for (int rows = 1; rows <= max_fused_rows(R, FusedKernel::Wave); rows *= 2) {
                    Geometry shaped = with_rows(g, rows);
                    check_wave<R, T>(shaped);
                    shaped.shape.ahead = 2;
                    if (two_planes_ahead_fit<R, T>(shaped.shape)) check_wave<R, T>(shaped);
                }
            }
        });
    });
}

// The source's table with `images`, on the host and in device memory as the
// step keeps it: its count read from steps[0] and advanced into steps[1].
template <class T>
struct SourceTable {
    SourceInUpdate<T> host;
    DeviceArray<SourceInUpdate<T>> device{1};
    SourceInLaunch<T> launch() const { return {device.data(), host}; }
};
template <class T, std::size_t N>
SourceTable<T> source_table(const int (&images)[N][3], const RickerSource& ricker,
                            DeviceArray<long long>& steps) {
    SourceTable<T> table;
    for (const auto& [i, j, k] : images)
        table.host.add(i, j, k);
    table.host.source = ricker, table.host.steps_in = steps.data();
    table.host.steps_out = steps.data() + 1;
    copy_to_device(table.device, &table.host);
    return table;
}

// Either body adds the source in the update (source.hpp): each image it
// computes gets the amplitude of the step count it reads, once, and the
// count advances in the other word; the same bits as the tile's update
// followed by the source's own launch, over the same words. A thread of the
// tile asks whether an image is among its cells (SourceInLaunch::meets), so
// the images sit in different blocks, and two share a group.
TEST_P(WaveKernel, UpdateAddsTheSourceAsItsOwnLaunchDoes) {
    const int radius = std::get<0>(GetParam());
    dispatch_precision(std::get<1>(GetParam()), [&](auto zero) {
        using T = decltype(zero);
        dispatch_radius(radius, [&](auto r) {
            constexpr int R = decltype(r)::value;
            const Layout L(45, 30, 21, R);
            const Box box{R + 1, R + 44, R, R + 30, R + 2, R + 21};
            std::mt19937_64 rng(test::fresh_seed());
            HostField<T> p(L), prev(L), vel(L);
            test::fill_random(p, rng);
            test::fill_random(prev, rng);
            test::fill_random(vel, rng, 0.05, 0.2);
            DeviceField<T> d_p(p), d_vel(vel);
            const auto c = make_coefficients<R, T>(1, 1, 1);
            const RickerSource ricker{1e-3, 15, 0.05, 0.25};
            // Images at both ends of a group, on the box's corners and twice in one group.
            const int images[][3] = {{box.x0, box.y0, box.z0},
                                     {box.x1 - 1, box.y1 - 1, box.z1 - 1},
                                     {R + 20, R + 7, R + 9},
                                     {R + 23, R + 7, R + 9}};
            auto run = [&](bool in_update, WaveBody body, long long& count) {
                DeviceField<T> d_prev(prev);
                DeviceArray<long long> steps(2);
                const long long words[2] = {41, -1};
                copy_to_device(steps, words);
                Stream stream;
                LaunchShape t;
                t.body = body;
                SourceCells<T> cells;
                for (const auto& [i, j, k] : images)
                    cells.add(d_prev.view().origin + L.index(i, j, k));
                const auto table = source_table<T>(images, ricker, steps);
                launch_wave_step<R, T>(d_p.view(), d_prev.view(), d_vel.view(), box, c, Sponge{},
                                       stream, t, nullptr,
                                       in_update ? table.launch() : SourceInLaunch<T>{});
                if (!in_update)
                    launch_add_source(cells, ricker, steps.data(), steps.data() + 1, stream);
                stream.synchronize();
                long long back[2];
                copy_to_host(back, steps);
                count = back[1];
                HostField<T> out(L);
                d_prev.read_into(out);
                return out.storage;
            };
            long long apart = 0;
            const auto reference = run(false, WaveBody::Tile, apart);
            EXPECT_EQ(apart, 42);
            for (const WaveBody body : {WaveBody::Cells, WaveBody::Tile}) {
                long long inside = 0;
                EXPECT_TRUE(reference == run(true, body, inside)) << wave_body_name(body);
                EXPECT_EQ(inside, 42) << wave_body_name(body);
            }
        });
    });
}

// The launch shape splits the work, never the arithmetic: the shape chosen
// per box gives the same bits as every z window, rows per thread, block and
// planes of loads in flight the kernel is built for (two ahead over windows
// that leave a block an odd number of planes, or one). The mini-app's
// decomposition invariance, and any tuner's freedom to pick a shape, rest
// on this.
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
            auto run = [&](const LaunchShape& t) {
                DeviceField<T> d_prev(prev);
                Stream stream;
                launch_wave_step<R, T>(d_p.view(), d_prev.view(), d_vel.view(), box, c, sponge,
                                       stream, t);
                stream.synchronize();
                HostField<T> out(L);
                d_prev.read_into(out);
                return out.storage;
            };
            const LaunchShape chosen = wave_shape<R, T>(LaunchShape{}, L, box);
            SCOPED_TRACE(testing::Message() << "R=" << R << " " << precision_name(precision_of<T>())
                                            << ", window chosen " << chosen.window);
            const auto reference = run(LaunchShape{0, 0, 16});
            EXPECT_TRUE(reference == run(LaunchShape{})) << "chosen shape";
            for (const int window : {1, 2, 4, 8, 64}) // short ones fill the device on small boxes
                EXPECT_TRUE(reference == run(LaunchShape{0, 0, window})) << "window " << window;
            for (int rows = 1; rows <= max_fused_rows(R, FusedKernel::Wave); rows *= 2) {
                EXPECT_TRUE(reference == run(LaunchShape{0, 0, 0, rows})) << "rows " << rows;
                if (!two_planes_ahead_fit<R, T>(LaunchShape{0, 0, 0, rows})) continue;
                for (const int window : {1, 2, 16, 17, 64})
                    EXPECT_TRUE(reference == run(LaunchShape{0, 0, window, rows, 2}))
                        << "two planes ahead, rows " << rows << ", window " << window;
            }
            for (const LaunchShape block :
                 {LaunchShape{8, 16}, LaunchShape{32, 4}, LaunchShape{16, 16}, LaunchShape{4, 8}})
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
        g.shape = result.best;
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
    const Geometry g{"whole_512", 512, 512, 512, 0, 0, 0, 0, 0, 0, LaunchShape{}};
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
