// The padded layout's promises, on awkward sizes and every radius, and the
// memory layer's.
#include "device.hpp"
#include "field.hpp"
#include "layout.hpp"
#include "memory.hpp"
#include "stencil.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace stencil {
namespace {

TEST(Layout, PaddingAndAlignmentHoldForAwkwardSizes) {
    const int sizes[][3] = {{67, 45, 33}, {1, 1, 1}, {64, 64, 64}, {61, 47, 53}, {200, 3, 7}};
    for (const auto& n : sizes)
        for (int R = 1; R <= 8; ++R) {
            SCOPED_TRACE(testing::Message() << n[0] << "x" << n[1] << "x" << n[2] << " R=" << R);
            const Layout L(n[0], n[1], n[2], R);
            EXPECT_EQ(L.line % 64, 0);
            EXPECT_GE(L.line, n[0] + 2 * R);
            EXPECT_EQ(L.slice, std::size_t(L.line) * (n[1] + 2 * R));
            // First interior x cell 256-byte aligned in every row, from a 256-byte aligned base.
            EXPECT_EQ((L.front + L.index(R, 0, 0)) % 64, 0u);
            EXPECT_EQ((L.front + L.index(R, 5 % L.py(), 3 % L.pz())) % 64, 0u);
            // The last cell and a 16-byte vector load past it fit the allocation.
            const std::size_t last = L.front + L.index(L.px() - 1, L.py() - 1, L.pz() - 1);
            EXPECT_LT(last + 4, L.allocation());
            // pos = i + line*j + slice*k.
            EXPECT_EQ(L.index(2, 3, 4), 2 + std::size_t(L.line) * 3 + L.slice * 4);
        }
}

TEST(Layout, AllocatedRowsAreAlignedInMemory) {
    if (STENCIL_HAS_GPU && device_count() == 0)
        GTEST_SKIP() << "no GPU visible: allocation alignment not checked";
    const Layout L(67, 45, 33, 3);
    DeviceArray<float> storage(L.allocation()); // host memory on the HOST back-end
    const FieldView<float> v = view_of(storage.data(), L);
    for (int k = 0; k < L.pz(); k += 7)
        for (int j = 0; j < L.py(); ++j)
            EXPECT_EQ(reinterpret_cast<std::uintptr_t>(v.ptr(L.halo, j, k)) % 256, 0u);
}

// copy() to the device is complete when it returns: a kernel launched next,
// on a stream that does not wait for the legacy one, sees the new contents.
// Large pageable copies are the case where cudaMemcpy alone returns early.
TEST(Memory, CopyToDeviceIsCompleteOnReturn) {
    if (!STENCIL_HAS_GPU || device_count() == 0)
        GTEST_SKIP() << "copies are checked on a GPU back-end with a visible GPU only";
    const std::size_t n = std::size_t(64) << 20; // 256 MB of floats
    const std::size_t tail = 1024;
    std::vector<float> host(n);
    DeviceArray<float> device(n), last(tail);
    std::vector<float> seen(tail);
    Stream stream;
    for (int round = 1; round <= 6; ++round) {
        std::fill(host.begin(), host.end(), float(round));
        copy_to_device(device, host.data());
        // The end of the array arrives last.
        launch_copy(device.data() + n - tail, last.data(), tail, stream);
        stream.synchronize();
        copy_to_host(seen.data(), last);
        EXPECT_EQ(std::count(seen.begin(), seen.end(), float(round)), long(tail))
            << "round " << round << ": the kernel ran before the copy had landed";
    }
}

TEST(Box, GeometryHelpers) {
    const Box b{2, 10, 3, 7, 1, 4};
    EXPECT_EQ(b.cells(), 8u * 4u * 3u);
    EXPECT_TRUE(b.contains(2, 3, 1));
    EXPECT_FALSE(b.contains(10, 3, 1));
    EXPECT_TRUE((Box{5, 5, 0, 9, 0, 9}).empty());
}

} // namespace
} // namespace stencil
