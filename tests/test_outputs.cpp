// The pieces that keep outputs honest: the combinable CRC-32, the folder
// lock, and files written complete or not at all. The end-to-end cases (a
// full disk, concurrent runs, a dead run's lock) are in output_safety_test.sh.
#include "io/checked_io.hpp"
#include "io/crc32.hpp"
#include "io/field_file.hpp"
#include "io/output_folder.hpp"
#include "restart/checkpoint_identity.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace stencil {
namespace {

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

bool exists(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0;
}

// A fresh empty folder per test, removed with everything in it afterwards.
class FolderTest : public testing::Test {
protected:
    void SetUp() override {
        char name[] = "/tmp/stencil-outputs-XXXXXX";
        const char* made = ::mkdtemp(name);
        ASSERT_NE(made, nullptr);
        folder_ = made;
    }
    void TearDown() override { std::filesystem::remove_all(folder_); }
    const std::string& fresh_folder() const { return folder_; }

private:
    std::string folder_;
};

using CheckedIo = FolderTest;
using FolderLock = FolderTest;
using EarlierOutputs = FolderTest;
using FieldFileWrite = FolderTest;

TEST(Crc32, MatchesTheStandardCheckValue) {
    EXPECT_EQ(crc32_of("123456789", 9), 0xCBF43926u); // the CRC-32 catalogue's check value
    EXPECT_EQ(crc32_of("", 0), 0u);
}

TEST(Crc32, PiecesFromSeveralRanksCombineToTheWholeFilesCrc) {
    std::mt19937 random(7);
    std::vector<unsigned char> file(200003);
    for (auto& byte : file)
        byte = static_cast<unsigned char>(random());
    // Three "ranks" own interleaved pieces of random length, as the rows of
    // a decomposed field are; each sees the others' bytes as zeros.
    RawCrc32 rank[3];
    for (std::size_t at = 0, owner = 0; at < file.size(); owner = (owner + 1) % 3) {
        const std::size_t length = std::min<std::size_t>(1 + random() % 900, file.size() - at);
        rank[owner].feed_at(at, &file[at], length);
        at += length;
    }
    std::uint32_t raw = 0;
    for (RawCrc32& r : rank) {
        r.extend_to(file.size());
        raw ^= r.value();
    }
    EXPECT_EQ(standard_crc32(raw, file.size()), crc32_of(file.data(), file.size()));
}

// A container's bytes around a field (an HDF5 file's header before it and
// headers after): rank 0 reads those, every rank its share of the field,
// and the XOR of the registers is the whole file's (field_file.hpp).
TEST(Crc32, AContainersBytesCombineWithTheFieldsPieces) {
    std::mt19937 random(11);
    std::vector<unsigned char> file(70001);
    for (auto& byte : file)
        byte = static_cast<unsigned char>(random());
    const std::size_t field_at = 2048, field_bytes = 60000;
    RawCrc32 rank[2], around;
    rank[0].feed_at(field_at, &file[field_at], 25000);
    rank[1].feed_at(field_at + 25000, &file[field_at + 25000], field_bytes - 25000);
    around.feed_at(0, file.data(), field_at);
    around.feed_at(field_at + field_bytes, &file[field_at + field_bytes],
                   file.size() - field_at - field_bytes);
    for (RawCrc32* r : {&rank[0], &rank[1], &around})
        r->extend_to(file.size());
    const RawCrc32 whole = RawCrc32::combined(RawCrc32::combined(rank[0], around), rank[1]);
    EXPECT_EQ(standard_crc32(whole.value(), file.size()), crc32_of(file.data(), file.size()));
}

TEST(Crc32, SkippingIsFeedingZeros) {
    const std::vector<unsigned char> zeros(100000, 0);
    RawCrc32 fed, skipped;
    fed.feed("abc", 3), skipped.feed("abc", 3);
    fed.feed(zeros.data(), zeros.size()), skipped.skip(zeros.size());
    EXPECT_EQ(fed.value(), skipped.value());
    EXPECT_EQ(fed.length(), skipped.length());
}

TEST_F(CheckedIo, WritesCompletelyAndLeavesNoPartialFile) {
    const std::string folder = fresh_folder(), path = folder + "/a.bin";
    EXPECT_EQ(write_file_completely(path, std::string("hello")), "");
    EXPECT_EQ(read_file(path), "hello");
    EXPECT_FALSE(exists(partial_path(path)));
    const std::string why = write_file_completely(folder + "/no/such/dir/b.bin", std::string("x"));
    EXPECT_EQ(why, "writing " + folder + "/no/such/dir/b.bin: No such file or directory");
}

TEST(RunIdentity, LockTextRoundTripsAnyHostAndJobName) {
    RunIdentity me = RunIdentity::of_this_process();
    me.host = "node \"7\" \\ r\u00e9\nx"; // a quote, a backslash, non-ASCII, a newline
    me.job_id = "42\t[3]";
    me.job_attempt = 3;
    RunIdentity back;
    ASSERT_TRUE(parse_run_identity(me.json(), back)) << me.json();
    EXPECT_EQ(back.host, me.host);
    EXPECT_EQ(back.job_id, me.job_id);
    EXPECT_EQ(back.pid, me.pid);
    EXPECT_EQ(back.pid_start, me.pid_start);
    EXPECT_EQ(back.started, me.started);
    EXPECT_EQ(back.job_attempt, me.job_attempt);
    EXPECT_FALSE(parse_run_identity("{\"host\": \"h\", \"pid\": -3, \"started\": \"t\"}", back));
    EXPECT_FALSE(parse_run_identity("{\"host\": \"h\", \"pid\": 7", back)); // truncated
}

TEST_F(FolderLock, OneRunAtATimeAndReleasedAtTheEnd) {
    const std::string folder = fresh_folder(), lock_path = folder + "/stencil-miniapp.lock";
    const RunIdentity me = RunIdentity::of_this_process();
    std::string note;
    {
        OutputFolderLock lock;
        ASSERT_EQ(lock.take(folder, false, me, note), "");
        RunIdentity written;
        ASSERT_TRUE(parse_run_identity(read_file(lock_path), written));
        EXPECT_EQ(written.pid, me.pid);
        EXPECT_EQ(written.host, me.host);
        // This process is alive: a second run is refused, even with force.
        OutputFolderLock second;
        EXPECT_NE(second.take(folder, false, me, note).find("is in use by a running job"),
                  std::string::npos);
        EXPECT_NE(second.take(folder, true, me, note).find("is in use by a running job"),
                  std::string::npos);
        EXPECT_FALSE(second.held());
    }
    EXPECT_FALSE(exists(lock_path)) << "the lock outlived its run";
}

// Same host and no such process, or the PID now another process's (its
// start time differs): the run is provably over, its lock is taken over
// with a note, without --output-force.
TEST_F(FolderLock, ADeadRunsLockIsTakenOverWithANote) {
    const std::string folder = fresh_folder(), lock_path = folder + "/stencil-miniapp.lock";
    const pid_t child = ::fork();
    if (child == 0) ::_exit(0);
    ::waitpid(child, nullptr, 0); // now a PID with no process
    RunIdentity dead = RunIdentity::of_this_process();
    dead.pid = child, dead.pid_start = 0;
    const RunIdentity me = RunIdentity::of_this_process();
    RunIdentity reused = me; // this live PID, but another process's start
    reused.pid_start = me.pid_start + 1;
    for (const RunIdentity& owner : {dead, reused}) {
        std::ofstream(lock_path) << owner.json();
        OutputFolderLock lock;
        std::string note;
        EXPECT_EQ(lock.take(folder, false, me, note), "") << owner.describe();
        EXPECT_NE(note.find("took over the lock of a run that died (host " + owner.host + ", pid " +
                            std::to_string(owner.pid)),
                  std::string::npos)
            << note;
        EXPECT_TRUE(lock.held());
        RunIdentity written;
        ASSERT_TRUE(parse_run_identity(read_file(lock_path), written));
        EXPECT_EQ(written.pid, me.pid);
    }
}

TEST_F(FolderLock, ALockFromAnotherHostOrUnreadableIsNotTakenSilently) {
    const std::string folder = fresh_folder(), lock_path = folder + "/stencil-miniapp.lock";
    RunIdentity other = RunIdentity::of_this_process();
    other.host += "-elsewhere";
    std::ofstream(lock_path) << other.json();
    OutputFolderLock lock;
    std::string note;
    const RunIdentity me = RunIdentity::of_this_process();
    EXPECT_NE(lock.take(folder, false, me, note).find("cannot be checked from here"),
              std::string::npos);
    std::ofstream(lock_path) << "garbage";
    EXPECT_NE(lock.take(folder, false, me, note).find("an unreadable lock"), std::string::npos);
    EXPECT_FALSE(lock.held());
}

// A requeued batch job finds its own earlier attempt's lock: that attempt is
// over (the scheduler runs one at a time), wherever it ran. The same job's
// same attempt, or another job, is not taken that way.
TEST_F(FolderLock, ARequeuedJobTakesItsEarlierAttemptsLock) {
    const std::string folder = fresh_folder(), lock_path = folder + "/stencil-miniapp.lock";
    RunIdentity earlier = RunIdentity::of_this_process();
    earlier.host += "-elsewhere";
    earlier.job_id = "4242", earlier.job_attempt = 0;
    RunIdentity me = RunIdentity::of_this_process();
    me.job_id = "4242", me.job_attempt = 1;
    OutputFolderLock lock;
    std::string note;
    std::ofstream(lock_path) << earlier.json();
    me.job_id = "4243";
    EXPECT_NE(lock.take(folder, false, me, note).find("cannot be checked from here"),
              std::string::npos);
    me.job_id = "4242", me.job_attempt = 0;
    EXPECT_NE(lock.take(folder, false, me, note).find("cannot be checked from here"),
              std::string::npos);
    me.job_attempt = 1;
    EXPECT_EQ(lock.take(folder, false, me, note), "");
    EXPECT_NE(note.find("this job's earlier attempt"), std::string::npos) << note;
    EXPECT_TRUE(lock.held());
}

TEST_F(EarlierOutputs, FindsAFinishedRunsFilesAndNothingElse) {
    const std::string folder = fresh_folder();
    // The user's files that merely look alike stay: --output-force and a
    // restart remove what earlier_outputs lists.
    for (const char* name :
         {"snapshot_000010.raw", "snapshot_000010.json", "traces.bin", "slice_z4_000010.png",
          "snapshot_1234567.raw", "snapshot_000010.raw.partial", "notes.txt", "run.json",
          "snapshot_notes.json", "snapshot_12.raw", "slice_.png", "slice_z4_final.png",
          "data.partial", "traces.bin.bak", "my_traces.json", "snapshot_000020.h5",
          "snapshot_000020.h5.partial", "snapshot_20.h5", "snapshot_000020.hdf5"})
        std::ofstream(folder + "/" + name) << "x";
    EXPECT_EQ(earlier_outputs(folder),
              (std::vector<std::string>{"slice_z4_000010.png", "snapshot_000010.json",
                                        "snapshot_000010.raw", "snapshot_000010.raw.partial",
                                        "snapshot_000020.h5", "snapshot_000020.h5.partial",
                                        "snapshot_1234567.raw", "traces.bin"}));
    EXPECT_GT(free_bytes(folder), 0u);
    EXPECT_EQ(human_bytes(1536), "1.5 KiB");
}

TEST_F(FieldFileWrite, OneRankWritesTheFileItsSidecarDescribes) {
    const std::string folder = fresh_folder(), path = folder + "/f.raw";
    const Decomposition d = decompose(MPI_COMM_SELF, {5, 3, 2}, {0, 0, 0});
    std::vector<float> field(30);
    for (std::size_t n = 0; n < field.size(); ++n)
        field[n] = 0.25f * float(n) - 3;
    const FieldFile written = write_field_file(d, path, field, false);
    const std::string bytes = read_file(path);
    ASSERT_EQ(bytes.size(), 120u);
    EXPECT_EQ(written.bytes, 120u);
    EXPECT_EQ(written.crc32, crc32_of(bytes.data(), bytes.size()));
    EXPECT_FALSE(exists(partial_path(path)));
    EXPECT_THROW(write_field_file(d, folder + "/g.raw", field, true), OutputFailure);
    EXPECT_FALSE(exists(folder + "/g.raw"));
    EXPECT_FALSE(exists(partial_path(folder + "/g.raw")));
}

TEST(CheckpointNames, StepNamesRoundTripPastSixDigits) {
    for (const int step : {0, 7, 999999, 1000000, 123456789}) {
        int parsed = -1;
        bool partial = true;
        ASSERT_TRUE(parse_step_name(step_name(step), parsed, partial)) << step_name(step);
        EXPECT_EQ(parsed, step);
        EXPECT_FALSE(partial);
        ASSERT_TRUE(parse_step_name(step_name(step) + ".partial", parsed, partial));
        EXPECT_EQ(parsed, step);
        EXPECT_TRUE(partial);
    }
    int step = 0;
    bool partial = false;
    for (const char* other : {"step_12345", "step_12345a", "steps_000010", "step_000010.bak",
                              "step_99999999999", "step_.partial", "notes"})
        EXPECT_FALSE(parse_step_name(other, step, partial)) << other;
}

TEST(CheckpointNames, AChangedModelIsNamedNotTheTimeStepItMoved) {
    const Json theirs = {{"dt_s", 0.002}, {"model", "constant"}, {"radius", 4}};
    EXPECT_EQ(first_difference(theirs, {{"dt_s", 0.001}, {"model", "layered"}, {"radius", 4}}),
              "its model is \"constant\", this run's is \"layered\"");
    EXPECT_EQ(first_difference(theirs, {{"dt_s", 0.001}, {"model", "constant"}, {"radius", 4}}),
              "its dt_s is 0.002, this run's is 0.001");
    EXPECT_EQ(first_difference(theirs, theirs), "");
}

// A setting added later (the snapshots' format) is absent from identities
// at its old value, so earlier checkpoints keep their CRC-32; a change is
// named either way.
TEST(CheckpointNames, ASettingAddedLaterIsNamedWhereEitherSideHasIt) {
    const Json raw = {{"radius", 4}}, hdf5 = {{"radius", 4}, {"snapshot_format", "hdf5"}};
    EXPECT_EQ(first_difference(hdf5, raw),
              "its snapshot_format is \"hdf5\", this run's is \"raw\"");
    EXPECT_EQ(first_difference(raw, hdf5),
              "its snapshot_format is \"raw\", this run's is \"hdf5\"");
    EXPECT_EQ(first_difference(hdf5, hdf5), "");
    EXPECT_EQ(first_difference({{"radius", 4}, {"snapshot_format", "raw"}}, raw), "");
}

} // namespace
} // namespace stencil
