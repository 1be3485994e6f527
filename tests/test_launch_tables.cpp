// Merged launches cover exactly what the separate launches did.
//
// One launch packs (or unpacks, or fills) every halo face, and one launch
// updates every boundary slab (kernels/launch_table.hpp). Each test runs the
// merged launch and the one-box-per-launch path on the same inputs, over
// outputs poisoned beforehand, and compares every cell of the allocation and
// every buffer element bit for bit: a cell the table misses keeps its
// poison, a cell it covers twice or wrongly differs. On the HOST back-end the
// loops walk the tables through the same mapping the GPU kernels take, so CI
// checks the mapping without a GPU; on a GPU build the kernels themselves.
#include "device.hpp"
#include "device_field.hpp"
#include "field_ops.hpp"
#include "stencil.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <tuple>
#include <vector>

namespace stencil {
namespace {
using test::DeviceField;
using test::HostField;

const auto kPrecisions = testing::Values(Precision::FP32, Precision::FP64);

// An odd-sized interior, so that no box is a multiple of a block or a group.
Layout odd_layout(int R) {
    return Layout(45, 37, 29, R);
}

// The six R-thick faces of the interior (send side), as the halo exchange
// packs the x and y ones.
std::vector<Box> owned_faces(const Layout& L) {
    const Box w = L.interior();
    const int R = L.halo;
    return {{w.x0, w.x0 + R, w.y0, w.y1, w.z0, w.z1}, {w.x1 - R, w.x1, w.y0, w.y1, w.z0, w.z1},
            {w.x0, w.x1, w.y0, w.y0 + R, w.z0, w.z1}, {w.x0, w.x1, w.y1 - R, w.y1, w.z0, w.z1},
            {w.x0, w.x1, w.y0, w.y1, w.z0, w.z0 + R}, {w.x0, w.x1, w.y0, w.y1, w.z1 - R, w.z1}};
}

// The shell of the interior R cells deep, as the mini-app splits it with a
// neighbour on every side: z slabs, then y, then x.
std::vector<Box> shell_slabs(const Layout& L) {
    const bool every_side[6] = {true, true, true, true, true, true};
    const ShellSplit split = split_shell(L.interior(), L.halo, every_side);
    return {split.slabs.begin(), split.slabs.end()};
}

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

template <class T>
std::vector<T> read(const DeviceArray<T>& d) {
    std::vector<T> h(d.size());
    copy_to_host(h.data(), d);
    return h;
}

class MergedLaunches : public testing::TestWithParam<std::tuple<int, Precision>> {
protected:
    void SetUp() override {
        if (STENCIL_HAS_GPU && device_count() == 0)
            GTEST_SKIP() << "no GPU visible: " << backend_name() << " merged-launch tests skipped";
    }
};

// One buffer per face for each path, poisoned, with a tail that must stay
// so; `table` points into `merged`.
template <class T>
struct FaceBuffers {
    std::vector<DeviceArray<T>> separate, merged;
    FaceTable<T> table;
};

// Packs every face one launch per face and through one table; both must
// write the same bits, each its face and nothing past it.
template <class T>
void pack_both_ways(FaceBuffers<T>& buffers, DeviceField<T>& field, const std::vector<Box>& faces,
                    Stream& stream) {
    const std::size_t tail = 8;
    std::vector<T> poisoned;
    auto& [separate, merged, table] = buffers;
    for (const Box& f : faces) {
        poisoned.assign(f.cells() + tail, test::poison<T>());
        for (auto* set : {&separate, &merged}) {
            set->emplace_back(poisoned.size());
            copy_to_device(set->back(), poisoned.data());
        }
        ASSERT_TRUE(table.add(f, merged.back().data()));
    }
    for (std::size_t n = 0; n < faces.size(); ++n)
        launch_pack<T>(field.view(), faces[n], separate[n].data(), stream);
    launch_pack_faces<T>(field.view(), table, stream);
    stream.synchronize();
    for (std::size_t n = 0; n < faces.size(); ++n) {
        const std::vector<T> a = read(separate[n]), b = read(merged[n]);
        EXPECT_TRUE(same_bits(a, b)) << "pack of face " << n << " differs";
        EXPECT_TRUE(test::is_poison(b[faces[n].cells()])) << "pack wrote past face " << n;
        EXPECT_FALSE(test::is_poison(b[0])) << "pack left face " << n << " unwritten";
    }
}

// Unpacks the packed buffers, and fills, into poisoned fields, one launch
// per face and through a table; both must leave the same bits.
template <class T>
void unpack_and_fill_both_ways(const Layout& L, const std::vector<Box>& faces,
                               const FaceBuffers<T>& buffers, Stream& stream) {
    HostField<T> blank(L, test::poison<T>()), one_by_one(L), together(L);
    for (const bool fill : {false, true}) {
        DeviceField<T> a(blank), b(blank);
        for (std::size_t n = 0; n < faces.size(); ++n)
            fill ? launch_fill<T>(a.view(), faces[n], T(n + 1), stream)
                 : launch_unpack<T>(buffers.separate[n].data(), a.view(), faces[n], stream);
        if (fill) {
            // One value per launch: fill the table's boxes one value at a time too.
            for (std::size_t n = 0; n < faces.size(); ++n) {
                FaceTable<T> one;
                one.add(faces[n], nullptr);
                launch_fill_faces<T>(b.view(), one, T(n + 1), stream);
            }
            FaceTable<T> all;
            for (const Box& f : faces)
                all.add(f, nullptr);
            DeviceField<T> c(blank), d(blank);
            launch_fill_faces<T>(c.view(), all, T(7), stream);
            for (const Box& f : faces)
                launch_fill<T>(d.view(), f, T(7), stream);
            stream.synchronize();
            c.read_into(together); // one launch over the whole table
            d.read_into(one_by_one);
            EXPECT_TRUE(same_bits(one_by_one.storage, together.storage)) << "fill differs";
        } else {
            launch_unpack_faces<T>(b.view(), buffers.table, stream);
        }
        stream.synchronize();
        a.read_into(one_by_one);
        b.read_into(together);
        EXPECT_TRUE(same_bits(one_by_one.storage, together.storage))
            << (fill ? "fill" : "unpack") << " differs";
    }
}

template <class T>
void check_faces(int R) {
    SCOPED_TRACE(testing::Message() << "R=" << R << " " << precision_name(precision_of<T>()));
    const std::uint64_t seed = test::fresh_seed();
    SCOPED_TRACE(testing::Message() << "seed " << seed);
    std::mt19937_64 rng(seed);
    const Layout L = odd_layout(R);
    HostField<T> source(L);
    test::fill_random(source, rng);
    DeviceField<T> field(source);
    const std::vector<Box> faces = owned_faces(L);
    Stream stream;
    FaceBuffers<T> buffers;
    ASSERT_NO_FATAL_FAILURE(pack_both_ways(buffers, field, faces, stream));
    unpack_and_fill_both_ways(L, faces, buffers, stream);
}

TEST_P(MergedLaunches, FacesMoveTheSameCells) {
    dispatch_precision(std::get<1>(GetParam()),
                       [&](auto zero) { check_faces<decltype(zero)>(std::get<0>(GetParam())); });
}

// The z slabs of shell_slabs, R cells thin along z.
bool slab_on_z(const Box& b) {
    return b.nz() < b.ny() && b.nz() < b.nx();
}

// Runs the slabs one launch per box and merged, from the same poisoned
// p_prev, and compares every cell; returns the merged launch's tables.
template <int R, class T>
std::size_t check_slabs(std::vector<LaunchBox> slabs) {
    const std::uint64_t seed = test::fresh_seed();
    SCOPED_TRACE(testing::Message() << "seed " << seed);
    std::mt19937_64 rng(seed);
    const Layout L = odd_layout(R);
    HostField<T> p(L), prev(L, test::poison<T>()), vel(L);
    test::fill_random(p, rng);
    test::fill_random(vel, rng, 0.05, 0.2);
    std::uniform_real_distribution<double> dist(-1, 1);
    for (const LaunchBox& s : slabs)
        for (int k = s.box.z0; k < s.box.z1; ++k)
            for (int j = s.box.y0; j < s.box.y1; ++j)
                for (int i = s.box.x0; i < s.box.x1; ++i)
                    prev(i, j, k) = T(dist(rng));
    Sponge sponge;
    sponge.width = 5;
    sponge.strength = 0.3f;
    sponge.halo = R;
    sponge.extent[0] = L.nx, sponge.extent[1] = L.ny, sponge.extent[2] = L.nz;
    const auto c = make_coefficients<R, T>(1, 1, 1);
    DeviceField<T> d_p(p), d_vel(vel), one_by_one(prev), together(prev);
    Stream stream;
    for (const LaunchBox& s : slabs) // the interior's kernel, one launch a box
        launch_wave_step<R, T>(d_p.view(), one_by_one.view(), d_vel.view(), s.box, c, sponge,
                               stream, wave_shape<R, T>(LaunchShape{}, L, s.box));
    const std::vector<WaveTable> tables = wave_tables(L, slabs, kLanes<T>);
    launch_wave_boxes<R, T>(d_p.view(), together.view(), d_vel.view(), tables, c, sponge, stream);
    stream.synchronize();
    HostField<T> a(L), b(L);
    one_by_one.read_into(a);
    together.read_into(b);
    std::size_t differ = 0, unwritten = 0;
    for (std::size_t n = 0; n < a.storage.size(); ++n) {
        differ += std::memcmp(&a.storage[n], &b.storage[n], sizeof(T)) != 0;
        unwritten += test::is_poison(b.storage[n]);
    }
    EXPECT_EQ(differ, 0u) << "cells where the merged slabs differ from one launch per slab";
    std::size_t inside = 0;
    for (const LaunchBox& s : slabs)
        inside += s.box.cells();
    EXPECT_EQ(unwritten, b.storage.size() - inside) << "the merged slabs left cells unwritten";
    return tables.size();
}

TEST_P(MergedLaunches, SlabsUpdateTheSameCells) {
    const int radius = std::get<0>(GetParam());
    dispatch_precision(std::get<1>(GetParam()), [&](auto zero) {
        using T = decltype(zero);
        dispatch_radius(radius, [&](auto r) {
            constexpr int R = decltype(r)::value;
            SCOPED_TRACE(testing::Message()
                         << "R=" << R << " " << precision_name(precision_of<T>()));
            const Layout L = odd_layout(R);
            std::vector<LaunchBox> slabs;
            for (const Box& b : shell_slabs(L))
                slabs.push_back({b, slab_shape<R, T>(L, b, SlabKernel::Tile), SlabKernel::Tile});
            // R-wide x slabs: every slab on the tile, one launch.
            EXPECT_EQ((check_slabs<R, T>(slabs)), 1u) << "built-in slab shapes need one launch";
            // Small boxes: every slab one group a thread, one launch.
            for (LaunchBox& s : slabs) {
                s.kernel = SlabKernel::Cells;
                s.shape = slab_shape<R, T>(L, s.box, s.kernel);
            }
            EXPECT_EQ((check_slabs<R, T>(slabs)), 1u) << "the cells kernel needs one launch";
            // The x and y slabs on the thin-slab kernel, as beside
            // line-wide x slabs: two launches.
            for (LaunchBox& s : slabs) {
                s.kernel = slab_on_z(s.box) ? SlabKernel::Tile : SlabKernel::Thin;
                s.shape = slab_shape<R, T>(L, s.box, s.kernel);
            }
            EXPECT_EQ((check_slabs<R, T>(slabs)), 2u) << "built-in slab shapes need two launches";
            // Other blocks (within slab_block's bound of kSlabThreads / R
            // groups for the thin kernel) and windows that leave
            // remainders: still two launches.
            const LaunchShape shapes[6] = {{32, 4, 3, 1}, {16, 8, 1, 1},  {1, 256, 5, 1},
                                           {32, 2, 7, 1}, {2, 128, 2, 1}, {4, 32, 16, 1}};
            for (int n = 0; n < 6; ++n)
                slabs[n].shape = shapes[n];
            EXPECT_EQ((check_slabs<R, T>(slabs)), 2u);
            // More thin boxes than a table holds: the y slabs and the first
            // x slab each in two halves along their long axis make seven,
            // two launches besides the z slabs'.
            for (const int n : {2, 3, 4}) {
                Box& b = slabs[std::size_t(n)].box;
                Box half = b;
                if (n == 4)
                    b.y1 = half.y0 = (b.y0 + b.y1) / 2;
                else
                    b.x1 = half.x0 = (b.x0 + b.x1) / 2;
                slabs.push_back(
                    {half, slab_shape<R, T>(L, half, SlabKernel::Thin), SlabKernel::Thin});
            }
            EXPECT_EQ((check_slabs<R, T>(slabs)), 3u);
        });
    });
}

INSTANTIATE_TEST_SUITE_P(Radii, MergedLaunches,
                         testing::Combine(testing::Values(1, 2, 4, 8), kPrecisions),
                         [](const auto& info) {
                             return "R" + std::to_string(std::get<0>(info.param)) + "_" +
                                    precision_name(std::get<1>(info.param));
                         });

TEST(WaveTables, EachKernelItsTablesSixBoxesATable) {
    const Layout L = odd_layout(4);
    std::vector<LaunchBox> boxes;
    for (const Box& b : shell_slabs(L))
        boxes.push_back(
            {b, LaunchShape{16, 8, 4, 1}, slab_on_z(b) ? SlabKernel::Tile : SlabKernel::Thin});
    boxes[2].shape = {1, 256, 4, 1}; // a thin table launches its largest block
    for (int n = 0; n < 3; ++n)
        boxes.push_back(boxes[5]);
    const std::vector<WaveTable> tables = wave_tables(L, boxes, 4);
    ASSERT_EQ(tables.size(), 3u);
    EXPECT_EQ(tables[0].kernel, SlabKernel::Tile);
    EXPECT_EQ(tables[0].count, 2);
    EXPECT_EQ(tables[1].kernel, SlabKernel::Thin);
    EXPECT_EQ(tables[1].count, 6);
    EXPECT_EQ(tables[1].threads, 256);
    EXPECT_EQ(tables[2].count, 1);
    EXPECT_EQ(tables[2].threads, 128);
    // Blocks are numbered box after box, with no gap.
    long long next = 0;
    for (int e = 0; e < tables[1].count; ++e) {
        EXPECT_EQ(tables[1].box[e].first_block, next);
        const TableBox& b = tables[1].box[e];
        next += (long long)b.grid_x * b.grid_y * ((b.box.nz() + b.window - 1) / b.window);
    }
    EXPECT_EQ(tables[1].blocks, next);
    // Every block finds the box it was numbered under.
    for (int e = 0; e < tables[1].count; ++e) {
        const TableBox& b = tables[1].box[e];
        EXPECT_EQ(locate_block(tables[1], b.first_block).entry.first_block, b.first_block);
    }
}

TEST(SplitShell, InnerAndSlabsCoverTheBoxOnceForEverySetOfSides) {
    const Box whole{3, 20, 3, 14, 3, 11};
    const int R = 3;
    for (int sides = 0; sides < 64; ++sides) {
        bool shrink[6];
        for (int s = 0; s < 6; ++s)
            shrink[s] = (sides >> s) & 1;
        const ShellSplit split = split_shell(whole, R, shrink);
        SCOPED_TRACE(testing::Message() << "sides mask " << sides);
        // The inner box: R less on each marked side, nothing less elsewhere.
        EXPECT_EQ(split.inner.x0, whole.x0 + (shrink[0] ? R : 0));
        EXPECT_EQ(split.inner.x1, whole.x1 - (shrink[1] ? R : 0));
        EXPECT_EQ(split.inner.y0, whole.y0 + (shrink[2] ? R : 0));
        EXPECT_EQ(split.inner.y1, whole.y1 - (shrink[3] ? R : 0));
        EXPECT_EQ(split.inner.z0, whole.z0 + (shrink[4] ? R : 0));
        EXPECT_EQ(split.inner.z1, whole.z1 - (shrink[5] ? R : 0));
        // Every cell of the box in exactly one part, none outside it.
        std::vector<int> count(std::size_t(whole.x1 * whole.y1 * whole.z1), 0);
        std::vector<Box> parts(split.slabs.begin(), split.slabs.end());
        parts.push_back(split.inner);
        for (const Box& b : parts)
            for (int k = b.z0; k < b.z1; ++k)
                for (int j = b.y0; j < b.y1; ++j)
                    for (int i = b.x0; i < b.x1; ++i) {
                        ASSERT_TRUE(i >= whole.x0 && j >= whole.y0 && k >= whole.z0);
                        ++count[std::size_t(i + whole.x1 * (j + whole.y1 * k))];
                    }
        for (int k = whole.z0; k < whole.z1; ++k)
            for (int j = whole.y0; j < whole.y1; ++j)
                for (int i = whole.x0; i < whole.x1; ++i)
                    ASSERT_EQ(count[std::size_t(i + whole.x1 * (j + whole.y1 * k))], 1)
                        << "cell " << i << " " << j << " " << k;
    }
}

TEST(XGroupsOf, WideBoxesStartOnA128ByteLineNarrowOnesOnTheirGroup) {
    for (int R = 1; R <= 8; ++R) {
        const Layout L(512, 8, 8, R);
        for (const int lanes : {4, 2}) { // float, double
            const int line = 8 * lanes;  // cells of 128 bytes
            // The interior shrunk by R: anchored to the line where the
            // interior starts (R), one partial first tile at most.
            const XGroups wide = XGroups::of(L, 2 * R, 512, lanes);
            EXPECT_EQ((L.front + wide.first) % line, 0) << "R " << R << " lanes " << lanes;
            EXPECT_LE(wide.first, 2 * R);
            EXPECT_GE(wide.first, R);
            EXPECT_GE(wide.first + lanes * wide.count, 512);
            // A thin x slab keeps the tight 16-byte start: no whole line of
            // idle groups before it.
            const XGroups thin = XGroups::of(L, 512, 512 + R, lanes);
            EXPECT_EQ((L.front + thin.first) % lanes, 0);
            EXPECT_GT(thin.first, 512 - lanes);
            EXPECT_GE(thin.first + lanes * thin.count, 512 + R);
        }
    }
}

} // namespace
} // namespace stencil
