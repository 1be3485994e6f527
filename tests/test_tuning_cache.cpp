// The tuning cache: a round trip, invalidation by device and by kernel
// revision, corrupt and truncated files, and concurrent writers; each with
// the one line a user sees.
#include "tuning_cache.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace stencil {
namespace {

const TuneIdentity kHere{"Test GPU 80GB", "sm_90", "CUDA runtime 13000", "abc123"};

TuneEntry entry(int radius, std::array<int, 3> box, LaunchShape shape) {
    return {{FusedKernel::Wave, radius, Precision::FP32, box}, shape, 0.5, 0.6};
}

class TuningCacheFile : public testing::Test {
protected:
    std::string path = testing::TempDir() + "tuning-cache-" + std::to_string(getpid()) + ".json";
    void TearDown() override { std::remove(path.c_str()); }
    void write(const std::string& text) { std::ofstream(path) << text; }
    std::string text() {
        std::ifstream in(path);
        return std::string(std::istreambuf_iterator<char>(in), {});
    }
};

TEST_F(TuningCacheFile, RoundTripsEveryField) {
    TuningCache cache(kHere);
    cache.put(entry(4, {512, 512, 512}, {32, 4, 64, 2}));
    cache.put(
        {{FusedKernel::Laplacian, 1, Precision::FP64, {128, 96, 64}}, {8, 16, 8, 4}, 0.125, 0.25});
    ASSERT_EQ(cache.save(path), "");
    std::string note;
    const TuningCache back = TuningCache::load(path, kHere, note);
    EXPECT_EQ(note, "");
    ASSERT_EQ(back.entries().size(), 2u);
    const TuneEntry* e = back.find({FusedKernel::Laplacian, 1, Precision::FP64, {128, 96, 64}});
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(e->shape.block_x, 8);
    EXPECT_EQ(e->shape.block_y, 16);
    EXPECT_EQ(e->shape.window, 8);
    EXPECT_EQ(e->shape.rows, 4);
    EXPECT_DOUBLE_EQ(e->ms, 0.125);
    EXPECT_DOUBLE_EQ(e->default_ms, 0.25);
    EXPECT_EQ(back.find({FusedKernel::Wave, 1, Precision::FP64, {128, 96, 64}}), nullptr);
}

TEST_F(TuningCacheFile, AnyDeviceNameRoundTrips) {
    // Device and runtime names come from the driver: quotes, backslashes and
    // non-ASCII text must neither break the file nor change the identity.
    const TuneIdentity odd{"GPU \"Q\" \\ 80GB\n\u00e9", "gfx942:sramecc+:xnack-", "HIP 6.4", "r"};
    TuningCache cache(odd);
    cache.put(entry(4, {64, 64, 64}, {16, 8, 4, 2}));
    ASSERT_EQ(cache.save(path), "");
    std::string note;
    EXPECT_EQ(TuningCache::load(path, odd, note).entries().size(), 1u);
    EXPECT_EQ(note, "");
}

TEST_F(TuningCacheFile, AMissingFileIsEmptyAndSilent) {
    std::string note = "unchanged?";
    EXPECT_TRUE(TuningCache::load(path, kHere, note).entries().empty());
    EXPECT_EQ(note, "");
}

TEST_F(TuningCacheFile, AnotherDeviceOrRevisionIsIgnoredWithOneLine) {
    TuningCache cache(kHere);
    cache.put(entry(4, {64, 64, 64}, {16, 8, 4, 2}));
    ASSERT_EQ(cache.save(path), "");
    TuneIdentity other_device = kHere, other_revision = kHere;
    other_device.device = "Other GPU";
    other_revision.revision = "def456";
    for (const TuneIdentity& id : {other_device, other_revision}) {
        std::string note;
        EXPECT_TRUE(TuningCache::load(path, id, note).entries().empty());
        EXPECT_NE(note.find("tuning cache " + path + " ignored: it was made for"),
                  std::string::npos)
            << note;
        EXPECT_EQ(note.find('\n'), std::string::npos);
    }
}

TEST_F(TuningCacheFile, CorruptOrTruncatedFilesAreIgnoredWithOneLine) {
    TuningCache cache(kHere);
    cache.put(entry(4, {64, 64, 64}, {16, 8, 4, 2}));
    ASSERT_EQ(cache.save(path), "");
    const std::string good = text();
    const std::string bad_shape = [&] {
        std::string t = good;
        t.replace(t.find("\"rows\": 2"), 9, "\"rows\": 8"); // R = 4 is built for 2 rows at most
        return t;
    }();
    for (const std::string& broken :
         {good.substr(0, good.size() / 2), std::string("not json"), std::string(""),
          good + "trailing", bad_shape, std::string("{\"format\": 1}")}) {
        write(broken);
        std::string note;
        EXPECT_TRUE(TuningCache::load(path, kHere, note).entries().empty()) << broken;
        EXPECT_NE(note.find("ignored"), std::string::npos) << broken;
        EXPECT_EQ(note.find('\n'), std::string::npos);
    }
}

// Entries written before the tuner searched planes ahead name none: they
// run one. An entry naming two where they are not built is refused.
TEST_F(TuningCacheFile, PlanesAheadAreReadAndChecked) {
    TuningCache cache(kHere);
    cache.put(entry(4, {64, 64, 64}, {16, 8, 4, 2, 1}));
    ASSERT_EQ(cache.save(path), "");
    const std::string good = text();
    ASSERT_NE(good.find("\"ahead\": 1,"), std::string::npos) << good;
    std::string older = good;
    older.erase(older.find("\"ahead\": 1,"), std::string("\"ahead\": 1,").size());
    write(older);
    std::string note;
    const TuningCache back = TuningCache::load(path, kHere, note);
    ASSERT_EQ(back.entries().size(), 1u) << note;
    EXPECT_EQ(back.entries()[0].shape.ahead, 1);
    std::string three = good;
    three.replace(three.find("\"ahead\": 1"), 11, "\"ahead\": 3");
    write(three);
    EXPECT_TRUE(TuningCache::load(path, kHere, note).entries().empty());
    EXPECT_NE(note.find("ignored"), std::string::npos);
    // Two planes at one row, where R = 4 builds them only at two (CUDA; HOST
    // builds none): refused.
    if (!two_planes_ahead_built(4, Precision::FP32, 1)) {
        std::string unbuilt = good;
        unbuilt.replace(unbuilt.find("\"ahead\": 1"), 11, "\"ahead\": 2");
        unbuilt.replace(unbuilt.find("\"rows\": 2"), 9, "\"rows\": 1");
        write(unbuilt);
        EXPECT_TRUE(TuningCache::load(path, kHere, note).entries().empty()) << unbuilt;
    }
}

// A hand-edited file with one kernel and box twice, and a folder named as
// the file: each ignored, with its own reason, not a guess or a JSON error.
TEST_F(TuningCacheFile, RepeatedEntriesAndADirectoryAreRefusedWithTheirReason) {
    TuningCache cache(kHere);
    cache.put(entry(4, {64, 64, 64}, {16, 8, 4, 2, 1}));
    ASSERT_EQ(cache.save(path), "");
    std::string twice = text();
    const std::size_t open = twice.find('{', twice.find("\"entries\""));
    const std::size_t close = twice.find('}', open);
    std::string again = twice.substr(open, close - open + 1);
    const std::string window = "\"window\": 4";
    again.replace(again.find(window), window.size(), "\"window\": 8");
    twice.insert(close + 1, ",\n" + again);
    write(twice);
    std::string note;
    EXPECT_TRUE(TuningCache::load(path, kHere, note).entries().empty()) << twice;
    EXPECT_NE(note.find("entry 2 repeats an earlier one's"), std::string::npos) << note;
    const std::string folder = path + ".d";
    ASSERT_EQ(mkdir(folder.c_str(), 0700), 0);
    EXPECT_TRUE(TuningCache::load(folder, kHere, note).entries().empty());
    EXPECT_NE(note.find("a directory"), std::string::npos) << note;
    rmdir(folder.c_str());
}

TEST_F(TuningCacheFile, SavingMergesWithWhatOthersWrote) {
    TuningCache first(kHere), second(kHere);
    first.put(entry(1, {64, 64, 64}, {16, 8, 4, 2}));
    second.put(entry(2, {64, 64, 64}, {8, 16, 8, 1}));
    ASSERT_EQ(first.save(path), "");
    ASSERT_EQ(second.save(path), "");
    std::string note;
    EXPECT_EQ(TuningCache::load(path, kHere, note).entries().size(), 2u);
}

// Two processes saving at once, many times: the file is always a whole,
// valid cache (rename is atomic), never a mix.
TEST_F(TuningCacheFile, ConcurrentWritersLeaveAValidFile) {
    pid_t children[2];
    for (int c = 0; c < 2; ++c) {
        children[c] = fork();
        ASSERT_GE(children[c], 0);
        if (children[c] == 0) {
            for (int n = 0; n < 40; ++n) {
                TuningCache cache(kHere);
                cache.put(entry(1 + c, {32 + n, 32, 32}, {16, 8, 4, 1}));
                if (!cache.save(path).empty()) _exit(1);
            }
            _exit(0);
        }
    }
    for (pid_t child : children) {
        int status = 0;
        waitpid(child, &status, 0);
        EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    std::string note;
    const TuningCache back = TuningCache::load(path, kHere, note);
    EXPECT_EQ(note, "");
    EXPECT_FALSE(back.entries().empty());
}

} // namespace
} // namespace stencil
