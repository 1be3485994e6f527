// The HOST back-end flushes subnormal floats (kernels/host_denormals.hpp).
// Both tests fail without the flush on any CPU, whether or not that CPU is
// slow on subnormals; tools/fom-steady.sh shows what the flush is for
// on one that is.
#include "host_denormals.hpp"
#include "precision.hpp"
#include "stencil.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>
#include <omp.h>

#include <limits>
#include <vector>

namespace stencil {
namespace {

void one_wave_step(Precision precision, std::vector<double>& out) {
    dispatch_precision(precision, [&](auto zero) {
        using T = decltype(zero);
        constexpr int R = 4;
        const Layout L(24, 20, 16, R);
        // Every input of the leapfrog a subnormal, but the velocity term.
        const T tiny = std::numeric_limits<T>::denorm_min() * T(1000);
        test::HostField<T> p(L, tiny), prev(L, tiny), vel(L, T(0.1));
        Stream stream;
        launch_wave_step<R, T>(p.cview(), prev.view(), vel.cview(), L.interior(),
                               make_coefficients<R, T>(1, 1, 1), Sponge{}, stream, LaunchShape{});
        out.clear();
        const Box in = L.interior();
        for (int k = in.z0; k < in.z1; ++k)
            for (int j = in.y0; j < in.y1; ++j)
                for (int i = in.x0; i < in.x1; ++i)
                    out.push_back(double(prev(i, j, k)));
    });
}

// 2 p - p_prev + dt^2 c^2 L(p) is the subnormal p in IEEE arithmetic; with
// denormals-are-zero every input is 0, and so is every result.
TEST(HostDenormals, SubnormalInputsGiveZeroInBothPrecisions) {
    for (const Precision precision : {Precision::FP32, Precision::FP64}) {
        std::vector<double> cells;
        one_wave_step(precision, cells);
        long long nonzero = 0;
        for (const double v : cells)
            nonzero += v != 0;
        EXPECT_EQ(nonzero, 0) << precision_name(precision) << ": of " << cells.size() << " cells";
    }
}

// Every thread that computes, not only the one that launched.
TEST(HostDenormals, EveryOpenMpThreadFlushesAfterALaunch) {
    std::vector<double> cells;
    one_wave_step(Precision::FP32, cells);
    int threads = 0, flushing = 0;
#pragma omp parallel reduction(+ : threads, flushing)
    {
        threads += 1;
        flushing += host_thread_flushes_denormals();
    }
    EXPECT_EQ(flushing, threads) << "of " << omp_get_max_threads() << " OpenMP threads";
    EXPECT_TRUE(host_thread_flushes_denormals()) << "the launching thread";
}

} // namespace
} // namespace stencil
