// Before the run: the receivers, and the output folder claimed for this
// run (outputs.hpp: prepare_outputs).
#include "config/warnings.hpp"
#include "io/hdf5_file.hpp"
#include "io/run_manifest.hpp"
#include "mpi_util.hpp"
#include "outputs/image.hpp"
#include "outputs/output_shapes.hpp"
#include "outputs/outputs.hpp"
#include "outputs/segy.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/stat.h>

namespace stencil {
namespace {

const char* kAxes = "xyz";

std::string make_directory(const std::string& path) {
    std::string partial;
    std::stringstream parts(path);
    for (std::string part; std::getline(parts, part, '/');) {
        partial += part + "/";
        if (part.empty() || part == ".") continue;
        if (mkdir(partial.c_str(), 0755) != 0 && errno != EEXIST)
            return "--output " + path + ": cannot create " + partial + " (" + std::strerror(errno) +
                   ")";
    }
    return {};
}

// One receiver per line as x,y,z (or x y z); blank lines and # comments are
// skipped, anything else is refused with its line number. A file with no
// receiver in it is refused too: a run that records nothing looks like
// success.
std::string read_receivers(const std::string& path, std::vector<std::array<int, 3>>& out) {
    struct stat info {};
    if (stat(path.c_str(), &info) != 0)
        return "--receivers " + path + ": cannot read it (" + std::strerror(errno) + ")";
    if (!S_ISREG(info.st_mode)) return "--receivers " + path + ": not a file";
    std::ifstream in(path);
    if (!in) return "--receivers " + path + ": cannot read it";
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        const auto hash = line.find('#');
        if (hash != std::string::npos) line.resize(hash);
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue; // blank or comment
        for (char& ch : line)
            if (ch == ',') ch = ' ';
        std::istringstream fields(line);
        std::array<int, 3> cell{};
        std::string rest;
        if (!(fields >> cell[0] >> cell[1] >> cell[2]) || (fields >> rest))
            return "--receivers " + path + ": line " + std::to_string(number) +
                   " is not x,y,z (three integers)";
        out.push_back(cell);
    }
    if (in.bad()) return "--receivers " + path + ": cannot read it";
    if (out.empty()) return "--receivers " + path + ": no receivers in it (one x,y,z per line)";
    return {};
}

// An upper bound of the bytes the run will write under c.output, over a
// global grid `grid`, with `file_receivers` receivers from --receivers.
std::uint64_t estimated_output_bytes(const Options& c, const std::array<int, 3>& grid,
                                     int file_receivers) {
    constexpr std::uint64_t kSidecar = 1024;
    const std::uint64_t steps = std::uint64_t(c.steps);
    const std::uint64_t snapshots =
        c.snapshot_every > 0 ? steps / std::uint64_t(c.snapshot_every) : 0;
    const std::uint64_t element = std::uint64_t(element_bytes(c.precision));
    const std::uint64_t field = std::uint64_t(grid[0]) * grid[1] * grid[2] * element;
    // Each snapshot's XDMF, and its grid in the series (outputs/xdmf.hpp);
    // an HDF5 file's own bytes (superblock, headers, attributes).
    constexpr std::uint64_t kXdmf = 2048, kHdf5 = 16384;
    const std::uint64_t container = c.output_format == OutputFormat::Hdf5 ? kHdf5 : 0;
    std::uint64_t bytes = snapshots * (field + container + kSidecar + 2 * kXdmf);
    // Checkpoints: two kept and one being written, two time levels each
    // (in --checkpoint-dir, checked on its own: prepare_checkpoint_folder).
    if (c.checkpoints_on() && c.checkpoint_dir.empty()) bytes += 3 * 2 * field;
    if (c.slice_axis >= 0) {
        int across = 0, down = 0;
        slice_axes(c.slice_axis, across, down);
        bytes += (snapshots + 1) * png_size_bound(grid[across], grid[down]);
    }
    const int receivers = file_receivers + (c.line_axis == 2 ? grid[0] : 0);
    if (receivers > 0) {
        const int stride = gather_stride(int(steps), receivers);
        // traces.sgy: the file's headers, each trace's, and float32 from t = 0.
        if (c.trace_format != TraceFormat::Raw)
            bytes += 3600 + std::uint64_t(receivers) * (240 + 4 * (steps + 1));
        bytes += std::uint64_t(receivers) * (steps * element + 32) + kSidecar +
                 png_size_bound(gather_width(receivers), int((steps + stride - 1) / stride));
    }
    return bytes;
}

// How a refusal names the run whose outputs a folder holds (`record`, if
// `readable`). A killed run's record still says "running": its outputs are
// not a finished run's, and its checkpoints may continue it.
std::string whose_outputs(bool readable, const RunManifest& record) {
    const std::string at = " at step " + std::to_string(record.step);
    if (!readable || record.state == "complete") return "a finished run's outputs";
    if (record.provenance.check == "failed")
        return "the outputs of a run that failed its checks" + at;
    if (record.stop_checkpoint && record.stop_checkpoint->empty())
        return "the outputs of a run stopped" + at + " without a checkpoint (--checkpoint-every " +
               "was 0), which cannot be resumed";
    return "the outputs of a run that did not finish (" + record.state + at + ")";
}

// Rank 0, a run that is no restart: refuses a folder holding an earlier
// run's outputs or the record of a run stopped by a signal, or with
// --output-force removes what the folder's record (io/run_manifest.hpp)
// lists and nothing else. Files named as outputs that no record lists (a
// user's snapshot_000098.json, an older version's) are refused even then:
// the run would write over them. "" or why not.
std::string clear_earlier_outputs(const Options& c, std::vector<std::string>& notes) {
    const std::string& dir = c.output;
    if (std::string why = RunManifest::in_the_way(dir); !why.empty()) return "--output: " + why;
    RunManifest record;
    const bool readable = RunManifest::read(dir, record).empty();
    // A run stopped by a signal is continued there with --restart latest,
    // which needs its record: a new run that wrote its own over it would
    // leave it unresumable, even when it wrote no output file yet. (A
    // killed run's folder is taken over with its dead lock, as documented.)
    // One stopped without a checkpoint cannot be continued: its outputs are
    // refused below as any unfinished run's are, saying so.
    const bool resumable = !record.stop_checkpoint || !record.stop_checkpoint->empty();
    if (readable && record.state == "stopped" && resumable) {
        const std::string stopped_at = "a run stopped at step " + std::to_string(record.step);
        if (!c.output_force)
            return "--output " + dir + " holds the record of " + stopped_at +
                   "; continue it with --restart latest, choose another folder, or pass "
                   "--output-force to start over";
        notes.push_back("--output-force: " + dir + ": the record of " + stopped_at +
                        " is replaced; that run can no longer be continued there");
    }
    const std::vector<std::string> earlier = earlier_outputs(dir);
    if (earlier.empty()) return {};
    std::vector<std::string> listed, unlisted;
    for (const std::string& name : earlier) {
        const std::string written = is_partial_name(name) ? name.substr(0, name.size() - 8) : name;
        (readable && record.files.count(written) ? listed : unlisted).push_back(name);
    }
    if (!unlisted.empty())
        return unrecorded_outputs_problem(dir, unlisted, "the run would write over such files");
    const std::string whose = whose_outputs(readable, record);
    if (!c.output_force)
        return "--output " + dir + " already holds " + whose + " (" +
               std::to_string(listed.size()) + " files, such as " + listed.front() +
               "); choose another folder, or pass --output-force to replace them";
    // Every one checked before any is removed: a refusal leaves the folder
    // as it was.
    for (const std::string& name : listed) {
        std::error_code error;
        if (!std::filesystem::is_regular_file(
                std::filesystem::symlink_status(dir + "/" + name, error)))
            return "--output-force: " + dir + "/" + name + " is not a regular file; move it";
    }
    for (const std::string& name : listed)
        if (std::remove((dir + "/" + name).c_str()) != 0)
            return "--output-force: cannot remove " + dir + "/" + name + " (" +
                   std::strerror(errno) + ")";
    notes.push_back("--output-force: removed " + std::to_string(listed.size()) +
                    " files of an earlier run from " + dir);
    return {};
}

// Rank 0: makes the folder, locks it for this run, refuses (or with
// --output-force replaces) a finished run's files, and checks the room.
std::string claim_output_folder(const Options& c, RunPlan& plan, int file_receivers,
                                OutputFolderLock& lock, std::vector<std::string>& notes) {
    const std::string& dir = c.output;
    if (std::string why = make_directory(dir); !why.empty()) return why;
    const RunIdentity me = RunIdentity::of_this_process();
    std::string note;
    if (std::string why = lock.take(dir, c.output_force, me, note); !why.empty()) return why;
    if (!note.empty()) notes.push_back(note);
    plan.run_id = me.id();
    // A restart continues the earlier run's outputs: once it knows its
    // step, it removes what that run wrote later (Outputs::resume_at).
    if (c.restart.empty())
        if (std::string why = clear_earlier_outputs(c, notes); !why.empty()) return why;
    const std::uint64_t need = estimated_output_bytes(c, plan.grid, file_receivers),
                        room = free_bytes(dir);
    if (need > room) {
        const std::string numbers = "the run will write up to " + human_bytes(need) +
                                    ", and the file system has " + human_bytes(room) + " free";
        if (!c.output_force)
            return "--output " + dir + ": " + numbers +
                   "; free some space, choose another folder, or pass --output-force";
        notes.push_back("--output-force: " + numbers);
    }
    return {};
}

// --trace-format with SEG-Y: refused where the run's samples or its dt do
// not fit SEG-Y rev 1; warned where no trace is recorded, or where the
// headers' whole microseconds drift by more than half a step over the run.
std::string trace_format_check(const Options& c, double dt, std::vector<std::string>& warnings) {
    if (c.trace_format == TraceFormat::Raw) return {};
    const std::string option =
        std::string("--trace-format ") + (c.trace_format == TraceFormat::Segy ? "segy" : "both");
    if (c.receivers_file.empty() && c.line_axis < 0) {
        warnings.push_back(option + " with no receivers (--receivers, --receiver-line): no "
                                    "trace is recorded");
        return {};
    }
    if (const std::string why = segy_problem(c.steps, dt); !why.empty())
        return option + ": " + why + "; use --trace-format raw";
    if (const double drift = segy_drift_ms(c.steps, dt); drift > 0.5 * dt * 1e3) {
        char line[320];
        std::snprintf(line, sizeof line,
                      "%s: SEG-Y holds the sample interval in whole microseconds, %d for dt = "
                      "%.9g s: by step %d a reader's clock is %.3g ms off the run's (half a step "
                      "is %.3g ms); --dt %.6f keeps them together",
                      option.c_str(), segy_interval_us(dt), dt, c.steps, drift, 0.5 * dt * 1e3,
                      segy_interval_us(dt) * 1e-6);
        warnings.push_back(line);
    }
    return {};
}

// --output-format hdf5: refused where the build has no HDF5, warned where
// no snapshot is written.
std::string output_format_check(const Options& c, std::vector<std::string>& warnings) {
    if (c.output_format != OutputFormat::Hdf5) return {};
    if (!hdf5_available())
        return "--output-format hdf5: this build has no parallel HDF5 (install "
               "libhdf5-openmpi-dev, or module load cray-hdf5-parallel, and configure again; "
               "docs/BUILDING.md)";
    if (c.snapshot_every == 0)
        warnings.push_back("--output-format hdf5 with no --snapshot-every: no snapshot is written");
    return {};
}

// Rank 0: whether a restart finds a record (or something of that name) in
// --output: the run the record describes is the one it may continue, and
// the record must then say how the continuation ended (resume_record
// refuses another run's).
bool continues_a_record(const Options& c) {
    std::error_code ignored;
    return !c.restart.empty() && std::filesystem::exists(std::filesystem::symlink_status(
                                     c.output + "/" + RunManifest::kFileName, ignored));
}

} // namespace

bool claims_output_folder(const Options& c) {
    // Checkpoints claim the folder too: two runs must not share them.
    return c.snapshot_every > 0 || c.slice_axis >= 0 || !c.receivers_file.empty() ||
           c.line_axis >= 0 || c.checkpoints_on();
}

std::string prepare_outputs(const Options& c, RunPlan& plan, double dt, OutputFolderLock& lock) {
    const std::array<int, 3>& grid = plan.grid;
    int any = world_rank() == 0 && (claims_output_folder(c) || continues_a_record(c));
    std::string problem;
    std::vector<int> flat;
    std::vector<std::string> notes, warnings;
    if (world_rank() == 0) {
        std::vector<std::array<int, 3>> receivers;
        if (!c.receivers_file.empty()) problem = read_receivers(c.receivers_file, receivers);
        for (const auto& r : receivers) {
            for (int a = 0; a < 3 && problem.empty(); ++a)
                if (r[a] < 0 || r[a] >= grid[a])
                    problem = "receiver " + std::to_string(r[0]) + "," + std::to_string(r[1]) +
                              "," + std::to_string(r[2]) + " is outside the grid (" + kAxes[a] +
                              " 0.." + std::to_string(grid[a] - 1) + ")";
            flat.insert(flat.end(), r.begin(), r.end());
        }
        if (problem.empty() && c.slice_axis >= 0 && c.slice_index >= grid[c.slice_axis])
            problem = std::string("--slice ") + kAxes[c.slice_axis] + "=" +
                      std::to_string(c.slice_index) + " is outside the grid (0.." +
                      std::to_string(grid[c.slice_axis] - 1) + ")";
        if (problem.empty() && c.line_axis >= 0 && c.line_index >= grid[2])
            problem = "--receiver-line z=" + std::to_string(c.line_index) +
                      " is outside the grid (0.." + std::to_string(grid[2] - 1) + ")";
        if (problem.empty() && (c.slice_axis >= 0) && !images_available())
            problem = "--slice: this build has no PNG writer (install libstb-dev and reconfigure)";
        if (problem.empty()) problem = output_format_check(c, warnings);
        if (problem.empty()) problem = trace_format_check(c, dt, warnings);
        if (problem.empty() && any)
            problem = claim_output_folder(c, plan, int(receivers.size()), lock, notes);
    }
    // The notes first: what was done before a refusal (a dead run's lock
    // taken) is said too.
    for (const std::string& note : notes)
        std::fprintf(stderr, "note: %s\n", note.c_str());
    print_warnings(warnings);
    if (std::string why = first_problem(MPI_COMM_WORLD, problem); !why.empty()) return why;
    MPI_CHECK(MPI_Bcast(&any, 1, MPI_INT, 0, MPI_COMM_WORLD));
    plan.claims_output = any != 0;
    int count = int(flat.size());
    MPI_CHECK(MPI_Bcast(&count, 1, MPI_INT, 0, MPI_COMM_WORLD));
    flat.resize(count);
    MPI_CHECK(MPI_Bcast(flat.data(), count, MPI_INT, 0, MPI_COMM_WORLD));
    for (int n = 0; n < count; n += 3)
        plan.receivers.push_back({flat[n], flat[n + 1], flat[n + 2]});
    return {};
}

} // namespace stencil
