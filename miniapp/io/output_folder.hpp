// One run owns its output folder. Rank 0 takes a lock file, created
// exclusively, that names the run (host, PID, batch job, start time); it is
// removed when the run ends, and left behind when the run dies, so a later
// run can tell a live owner from a dead one. Also: which files of a finished
// run a folder holds, and how much room its file system has.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace stencil {

struct RunIdentity {
    std::string host;
    long pid = 0;
    std::string
        job_id; // SLURM_JOB_ID, PBS_JOBID, LSB_JOBID or FLUX_JOB_ID; empty outside a batch job
    int job_attempt = 0; // SLURM_RESTART_COUNT: how often the batch job was requeued
    std::string started; // UTC, ISO 8601
    long long pid_start =
        0; // the process's start in clock ticks after boot (Linux), against PID reuse

    static RunIdentity of_this_process();
    std::string json() const;
    // "host H, pid P, job J, started T"
    std::string describe() const;
    // host:pid:started, written into every sidecar so a file names its run.
    std::string id() const;
};

// Reads a lock file's text; false if it is not one.
bool parse_run_identity(const std::string& text, RunIdentity& out);

class OutputFolderLock {
public:
    static constexpr const char* kFileName = "stencil-miniapp.lock";

    OutputFolderLock() = default;
    ~OutputFolderLock() { release(); }
    OutputFolderLock(OutputFolderLock&& other) noexcept;
    OutputFolderLock& operator=(OutputFolderLock&& other) noexcept;
    OutputFolderLock(const OutputFolderLock&) = delete;
    OutputFolderLock& operator=(const OutputFolderLock&) = delete;

    // Takes `folder` for this run, or returns one line saying why not. A lock
    // whose run is provably dead (same host, and no such process, a zombie,
    // or a PID that another process has since: the start times differ) is
    // taken over, and `note` says so. A lock whose run cannot be checked
    // from here (another host, an unreadable lock) is replaced only with
    // `force`, and `note` then says what was replaced. A live run's lock
    // never is. A lock left by an earlier attempt of this same batch job
    // (requeued: same job ID, lower SLURM_RESTART_COUNT) is dead by the
    // scheduler's word and is replaced with a note. `named` is how the
    // messages name the folder ("--output FOLDER" if empty).
    std::string take(const std::string& folder, bool force, const RunIdentity& me,
                     std::string& note, const std::string& named = {});
    // Removes the lock file if it is still this run's.
    void release() noexcept;
    bool held() const { return !path_.empty(); }
    const std::string& path() const { return path_; }

private:
    std::string path_, contents_;
};

// Files a finished run of this program left in `folder` (snapshots and
// sidecars, traces, images, partial files), by name.
std::vector<std::string> earlier_outputs(const std::string& folder);

// Whether a finished run of this program writes a file of this name into
// its output folder (the lock included).
bool is_run_output_name(const std::string& name);

// Whether `name` is a file's temporary name while it is written
// (NAME.partial, checked_io.hpp).
bool is_partial_name(const std::string& name);

// "--output DIR holds NAME (of N files named as this program's outputs)
// that no record of a run lists (...)", then `consequence`: the one line
// that refuses a folder holding output-named files the run cannot prove
// are its own.
std::string unrecorded_outputs_problem(const std::string& dir,
                                       const std::vector<std::string>& names,
                                       const std::string& consequence);

// Before step 1: whether `path`, named by `option` ("--report"), can take
// a file the run writes at its end: not a directory, in a folder that
// exists and is writable (tried through the partial name the file is
// written under, then removed). "" or one line naming the option.
std::string output_file_problem(const std::string& option, const std::string& path);

// Whether two paths name the same file, existing or not (made absolute,
// what exists of them resolved); false where either is empty.
bool same_path(const std::string& a, const std::string& b);
// Whether `path` is `folder` or lies inside it, in the same sense.
bool within(const std::string& path, const std::string& folder);

// Bytes the caller may still write in `folder`'s file system (statvfs), or
// UINT64_MAX if it cannot tell.
std::uint64_t free_bytes(const std::string& folder);

// "1.5 GiB" and the like.
std::string human_bytes(std::uint64_t bytes);

} // namespace stencil
