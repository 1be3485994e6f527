// halo/ pieces that need no neighbours: uneven splits, the split check,
// and how GPU-aware MPI is detected.
#include "decomposition.hpp"
#include "gpu_aware.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <numeric>

namespace stencil {
namespace {

TEST(Decomposition, UnevenSplitsGiveTheRemainderToTheFirstRanks) {
    const int n = 61, parts = 4; // 16, 15, 15, 15
    int total = 0;
    for (int c = 0; c < parts; ++c) {
        EXPECT_EQ(piece_size(n, parts, c), c < 1 ? 16 : 15);
        EXPECT_EQ(piece_offset(n, parts, c), total);
        total += piece_size(n, parts, c);
    }
    EXPECT_EQ(total, n);
}

TEST(Decomposition, SplitCheckNamesTheRadiusLimit) {
    EXPECT_EQ(check_split({64, 64, 64}, {2, 2, 2}, 8), "");
    const std::string why = check_split({64, 64, 30}, {1, 1, 4}, 8);
    EXPECT_NE(why.find("fewer than the radius R=8"), std::string::npos) << why;
    EXPECT_NE(why.find("need at least 32 cells"), std::string::npos) << why;
    // An unsplit direction may be thinner than R.
    EXPECT_EQ(check_split({64, 64, 3}, {2, 2, 1}, 4), "");
}

TEST(Decomposition, OneRankOwnsEverythingAndHasNoNeighbours) {
    const Decomposition d = decompose(MPI_COMM_SELF, {10, 20, 30}, {0, 0, 0});
    EXPECT_EQ(d.local, (std::array<int, 3>{10, 20, 30}));
    for (int a = 0; a < 3; ++a)
        EXPECT_FALSE(d.has_neighbour(a, Low) || d.has_neighbour(a, High));
}

TEST(GpuAwareDetection, EnvironmentForcesTheAnswerEitherWay) {
    ::setenv("STENCIL_GPU_AWARE_MPI", "0", 1);
    GpuAwareness a = detect_gpu_aware_mpi();
    EXPECT_FALSE(a.supported);
    EXPECT_EQ(a.reason, "STENCIL_GPU_AWARE_MPI=0");
    ::setenv("STENCIL_GPU_AWARE_MPI", "1", 1);
    a = detect_gpu_aware_mpi();
    EXPECT_TRUE(a.supported);
    ::unsetenv("STENCIL_GPU_AWARE_MPI");
    a = detect_gpu_aware_mpi();
    EXPECT_FALSE(a.reason.empty()) << "every answer names its source";
}

} // namespace
} // namespace stencil
