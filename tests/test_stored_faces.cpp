// The one-box wave update that stores its faces (the one-kernel step,
// kernels/stored_wave_kernels.cu): each cell of a face stored where its
// sink says as it is computed, nothing else written, and the update's own
// cells bit for bit those of the update without sinks. Through the direct
// path (every sink a face laid out as the field, as a rank alone on a
// periodic box stores them) and through a packed buffer (the general path).
// On the HOST back-end the loops copy after the update, through the same
// table; on a GPU build the kernels themselves.
#include "device.hpp"
#include "device_field.hpp"
#include "kernel_checks.hpp"
#include "stencil.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <tuple>
#include <vector>

namespace stencil {
namespace {
using test::DeviceField;
using test::HostField;

class StoredFaces : public testing::TestWithParam<std::tuple<int, Precision>> {
protected:
    void SetUp() override {
        if (STENCIL_HAS_GPU && device_count() == 0)
            GTEST_SKIP() << "no GPU visible: " << backend_name() << " stored-face tests skipped";
    }
};

// The six faces of an odd-sized box, each a sink into the halo across the
// box; with `packed`, the -x face into `buffer` of its own strides.
template <class T>
FaceSinks<T> self_sinks(const Layout& L, T* origin, T* buffer, bool packed) {
    const Box w = L.interior();
    const int R = L.halo;
    const Box faces[6] = {
        {w.x0, w.x0 + R, w.y0, w.y1, w.z0, w.z1}, {w.x1 - R, w.x1, w.y0, w.y1, w.z0, w.z1},
        {w.x0, w.x1, w.y0, w.y0 + R, w.z0, w.z1}, {w.x0, w.x1, w.y1 - R, w.y1, w.z0, w.z1},
        {w.x0, w.x1, w.y0, w.y1, w.z0, w.z0 + R}, {w.x0, w.x1, w.y0, w.y1, w.z1 - R, w.z1}};
    const int shift[6][3] = {{L.nx, 0, 0},  {-L.nx, 0, 0}, {0, L.ny, 0},
                             {0, -L.ny, 0}, {0, 0, L.nz},  {0, 0, -L.nz}};
    FaceSinks<T> sinks;
    for (int f = 0; f < 6; ++f) {
        const Box& b = faces[f];
        const bool ok = packed && f == 0
                            ? sinks.add(b, buffer, b.nx(), (long long)b.nx() * b.ny())
                            : sinks.add(b,
                                        origin + L.index(b.x0 + shift[f][0], b.y0 + shift[f][1],
                                                         b.z0 + shift[f][2]),
                                        L.line, (long long)L.slice);
        EXPECT_TRUE(ok);
    }
    sinks.skip = {w.x0 + R, w.x1 - R, w.y0 + R, w.y1 - R, w.z0 + R, w.z1 - R};
    sinks.find_direct(w, origin, L.line, (long long)L.slice, R + 2 * kLanes<T>);
    return sinks;
}

// Compares every sink's cells with the plain update's cells (`want`), and
// every other cell of the field with it too; `got` is the stored run's
// field, `packed_face` its buffer.
template <class T>
void expect_faces_stored(const FaceSinks<T>& sinks, const T* origin, const HostField<T>& want,
                         const HostField<T>& got, const T* buffer,
                         const std::vector<T>& packed_face, bool packed) {
    const Layout& L = want.layout;
    std::vector<char> targeted(got.storage.size(), 0);
    std::size_t wrong = 0;
    for (int s = 0; s < sinks.count; ++s)
        for (int k = sinks.box[s].z0; k < sinks.box[s].z1; ++k)
            for (int j = sinks.box[s].y0; j < sinks.box[s].y1; ++j)
                for (int i = sinks.box[s].x0; i < sinks.box[s].x1; ++i) {
                    const T expected = want(i, j, k);
                    T value;
                    if (packed && s == 0) {
                        value = packed_face[std::size_t(sinks.at(0, i, j, k) - buffer)];
                    } else {
                        const std::size_t n = std::size_t(sinks.at(s, i, j, k) - origin) + L.front;
                        value = got.storage[n];
                        targeted[n] = 1;
                    }
                    wrong += std::memcmp(&expected, &value, sizeof(T)) != 0;
                }
    EXPECT_EQ(wrong, 0u) << "face cells stored wrong or not at all";
    std::size_t differ = 0;
    for (std::size_t n = 0; n < got.storage.size(); ++n)
        differ += !targeted[n] && std::memcmp(&want.storage[n], &got.storage[n], sizeof(T)) != 0;
    EXPECT_EQ(differ, 0u) << "cells no sink targets differ from the update without sinks";
}

template <int R, class T>
void check_stored_faces(bool packed, const LaunchShape& requested = {}) {
    const std::uint64_t seed = test::fresh_seed();
    SCOPED_TRACE(testing::Message()
                 << "seed " << seed << (packed ? ", packed -x face" : "") << ", window "
                 << requested.window << ", planes ahead " << requested.ahead);
    std::mt19937_64 rng(seed);
    const Layout L(45, 37, 29, R);
    const Box owned = L.interior();
    HostField<T> p(L), prev(L, test::poison<T>()), vel(L);
    test::fill_random(p, rng);
    test::fill_random(vel, rng, 0.05, 0.2);
    std::uniform_real_distribution<double> dist(-1, 1);
    for (int k = owned.z0; k < owned.z1; ++k)
        for (int j = owned.y0; j < owned.y1; ++j)
            for (int i = owned.x0; i < owned.x1; ++i)
                prev(i, j, k) = T(dist(rng));
    DeviceField<T> d_p(p), d_vel(vel), plain(prev), stored(prev);
    DeviceArray<T> buffer(static_cast<std::size_t>(R) * L.ny * L.nz);
    const FaceSinks<T> sinks = self_sinks<T>(L, stored.view().origin, buffer.data(), packed);
    EXPECT_EQ(sinks.direct, !packed);
    DeviceArray<FaceSinks<T>> table(1);
    copy_to_device(table, &sinks);
    const auto c = make_coefficients<R, T>(1, 1, 1);
    const LaunchShape shape = wave_shape<R, T>(requested, L, owned);
    Stream stream;
    launch_wave_step<R, T>(d_p.view(), plain.view(), d_vel.view(), owned, c, Sponge{}, stream,
                           shape);
    launch_wave_step<R, T>(d_p.view(), stored.view(), d_vel.view(), owned, c, Sponge{}, stream,
                           shape, table.data());
    stream.synchronize();
    HostField<T> want(L), got(L);
    plain.read_into(want);
    stored.read_into(got);
    std::vector<T> packed_face(buffer.size());
    copy_to_host(packed_face.data(), buffer);
    expect_faces_stored(sinks, stored.view().origin, want, got, buffer.data(), packed_face, packed);
}

TEST_P(StoredFaces, TheOneBoxUpdateStoresItsFacesAsItComputesThem) {
    const int radius = std::get<0>(GetParam());
    dispatch_precision(std::get<1>(GetParam()), [&](auto zero) {
        using T = decltype(zero);
        dispatch_radius(radius, [&](auto r) {
            constexpr int R = decltype(r)::value;
            SCOPED_TRACE(testing::Message()
                         << "R=" << R << " " << precision_name(precision_of<T>()));
            check_stored_faces<R, T>(false);
            check_stored_faces<R, T>(true);
            // Two planes ahead where built, over 29 planes: blocks of 16 and
            // 13, and of 7 with one plane left for the last.
            if (!test::kernels::two_planes_ahead_fit<R, T>(LaunchShape{})) return;
            for (const int window : {16, 7})
                for (const bool packed : {false, true})
                    check_stored_faces<R, T>(packed, LaunchShape{0, 0, window, 0, 2});
        });
    });
}

INSTANTIATE_TEST_SUITE_P(Radii, StoredFaces,
                         testing::Combine(testing::Values(1, 2, 3, 4, 8),
                                          testing::Values(Precision::FP32, Precision::FP64)),
                         [](const auto& info) {
                             return "R" + std::to_string(std::get<0>(info.param)) + "_" +
                                    precision_name(std::get<1>(info.param));
                         });

} // namespace
} // namespace stencil
