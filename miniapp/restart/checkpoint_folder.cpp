// The checkpoint folder before step 1 (writable, with room, holding no
// other run's checkpoints) and its clean-up: only the checkpoints of this
// run's settings are ever removed, never a folder the program did not write.
#include "restart/checkpoint.hpp"
#include "restart/checkpoint_identity.hpp"

#include "io/output_folder.hpp"
#include "mpi_util.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <unistd.h>

namespace fs = std::filesystem;

namespace stencil {
namespace {

// How the user named the folder: --checkpoint-dir, or --output for OUTPUT/checkpoints.
std::string named(const Options& c) {
    return c.checkpoint_dir.empty() ? "--output " + c.output
                                    : "--checkpoint-dir " + c.checkpoint_dir;
}

// The folder itself, as the messages about writing in it name it.
std::string folder_named(const Options& c) {
    return c.checkpoint_dir.empty() ? "the checkpoint folder " + checkpoint_folder(c)
                                    : "--checkpoint-dir " + c.checkpoint_dir;
}

// Rank 0: the folder exists (made if not) and this process can write in it.
std::string check_writable(const Options& c, const std::string& dir) {
    std::error_code error;
    if (fs::exists(dir, error) && !fs::is_directory(dir, error))
        return folder_named(c) + ": not a folder";
    fs::create_directories(dir, error);
    if (error) return folder_named(c) + ": cannot create it (" + error.message() + ")";
    const std::string probe = dir + "/.stencil-miniapp-probe-" + std::to_string(::getpid());
    const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) return folder_named(c) + ": cannot write in it (" + std::strerror(errno) + ")";
    ::close(fd);
    ::unlink(probe.c_str());
    return {};
}

// Rank 0: room for two kept checkpoints and one being written, where the
// checkpoints go elsewhere than --output (whose check counts them otherwise).
std::string check_room(const Options& c, const RunPlan& plan, const std::string& dir,
                       std::vector<std::string>& notes) {
    if (c.checkpoint_dir.empty()) return {};
    const std::uint64_t element = std::uint64_t(element_bytes(c.precision));
    const std::uint64_t field = std::uint64_t(plan.grid[0]) * plan.grid[1] * plan.grid[2] * element;
    const std::uint64_t receivers = plan.receivers.size() + (c.line_axis == 2 ? plan.grid[0] : 0);
    const std::uint64_t need = 3 * (2 * field + receivers * std::uint64_t(c.steps) * element);
    const std::uint64_t room = free_bytes(dir);
    if (need <= room) return {};
    const std::string numbers = "the checkpoints take up to " + human_bytes(need) +
                                ", and the file system has " + human_bytes(room) + " free";
    if (!c.output_force)
        return named(c) + ": " + numbers +
               "; free some space, choose another folder, or pass --output-force";
    notes.push_back("--output-force: " + numbers);
    return {};
}

// The line refusing `other`, the newest checkpoint in the folder that is
// not this run's. A restart from that folder with a changed setting gets
// the restart's own refusal, which names the setting.
std::string refusal(const Options& c, const StepFolder& other, const Json& mine) {
    const std::string difference = first_difference(other.configuration, mine);
    if (c.restart == "latest" && !other.settings.empty() && !difference.empty())
        return "--restart " + other.path + ": the checkpoint's " + difference.substr(4) +
               " (only timing options may change across a restart)";
    // An older version's checkpoint has no seal to check: this version
    // cannot continue it, and its files are still the user's to keep.
    const std::string how = other.settings.empty()
                                ? "written by an older version, which this one cannot continue: "
                                  "finish that run with the version that wrote it); "
                            : other.settings == settings_id(mine)
                                ? "the same settings); continue it with --restart latest, "
                                : difference + "); ";
    return named(c) + " holds checkpoints of another run (run " +
           (other.run.empty() ? "unnamed" : other.run) + ", " + other.name + ", " + how +
           "pass --output-force to remove them, or choose another folder";
}

// Rank 0: refuses (or with --output-force removes) the checkpoints in `dir`
// that are not this run's: other settings, or, without --restart, any
// complete one (a new run does not continue an earlier one's).
std::string check_owners(const Options& c, const Json& mine, const std::string& dir,
                         std::vector<std::string>& notes) {
    const std::string id = settings_id(mine);
    std::vector<StepFolder> other;
    for (const StepFolder& f : step_folders(dir)) {
        const bool due = c.checkpoint_every > 0 && f.step > 0 && f.step <= c.steps &&
                         f.step % c.checkpoint_every == 0;
        // A damaged checkpoint of this program's (a truncated checkpoint.json)
        // where the restart will write again: moved aside, so that the
        // restart falls back to the checkpoint before it, as documented.
        if (!f.checkpoint && due && f.damaged && !c.restart.empty()) {
            const std::string moved = set_aside(f.path, "it does not read as a checkpoint");
            if (moved.rfind("left", 0) == 0) return "checkpoint " + f.path + ": " + moved;
            notes.push_back("checkpoint " + f.path + " does not read as a checkpoint (damaged?); " +
                            moved);
            continue;
        }
        // Not this program's: never touched, and refused where a checkpoint is due.
        if (!f.checkpoint && due)
            return named(c) + ": " + f.name + (f.folder ? " is" : " is a file,") +
                   " not a checkpoint of this program, and the run would write one there; "
                   "move it, or choose another folder";
        // Another run's unfinished checkpoint is no restart candidate: a
        // restart passes it by, unless it is where the run would write.
        if (f.partial && f.settings != id && !c.restart.empty() && !(due && c.output_force)) {
            if (due)
                return named(c) + ": " + f.name +
                       " is another run's unfinished checkpoint, and the run would write one "
                       "there; pass --output-force to remove it, or choose another folder";
            continue;
        }
        if (f.checkpoint && !(f.settings == id && (!c.restart.empty() || f.partial)))
            other.push_back(f);
    }
    if (other.empty()) return {};
    if (!c.output_force) return refusal(c, other.back(), mine);
    // What is left of one (a user's file in it) is moved aside, whole: the
    // run may write that step again.
    for (const StepFolder& f : other)
        if (std::string aside; !remove_checkpoint(f).empty()) {
            if (std::string why = move_aside(f.path, aside); !why.empty())
                return "--output-force: " + why;
            notes.push_back("--output-force: moved " + f.path + " to " + aside +
                            ": it holds files the checkpoint did not write");
        }
    notes.push_back("--output-force: removed " + std::to_string(other.size()) +
                    " checkpoints of another run from " + dir);
    return {};
}

// Rank 0: the checkpoint folder taken for this run as --output is
// (OutputFolderLock: a live run's never, a dead one's with a note), before
// anything in it is removed, unless it is the output folder itself. Locked
// also inside the output folder: another run may name it --checkpoint-dir.
std::string lock_folder(const Options& c, const std::string& dir, OutputFolderLock& lock,
                        std::vector<std::string>& notes) {
    std::error_code ignored;
    if (fs::equivalent(dir, c.output, ignored)) return {};
    std::string note;
    // Named as the folder it is: inside --output, not --output itself.
    const std::string name = folder_named(c);
    const std::string why =
        lock.take(dir, c.output_force, RunIdentity::of_this_process(), note, name);
    if (!note.empty()) notes.push_back(note);
    return why;
}

} // namespace

std::string prepare_checkpoint_folder(const RunContext& run, OutputFolderLock& lock) {
    const Options& c = run.options;
    const RunPlan& plan = run.plan;
    if (!c.checkpoints_on()) return {};
    const std::string dir = checkpoint_folder(c);
    std::string problem;
    std::vector<std::string> notes;
    if (world_rank() == 0) {
        problem = check_writable(c, dir);
        if (problem.empty()) problem = lock_folder(c, dir, lock, notes);
        if (problem.empty()) problem = check_room(c, plan, dir, notes);
        if (problem.empty()) problem = check_owners(c, checkpoint_identity(run), dir, notes);
    }
    if (std::string why = first_problem(MPI_COMM_WORLD, problem); !why.empty()) return why;
    for (const std::string& note : notes)
        std::fprintf(stderr, "note: %s\n", note.c_str());
    return {};
}

void remove_stale_checkpoints(const RunContext& run) {
    const Options& c = run.options;
    if (world_rank() != 0 || (!c.checkpoints_on() && c.restart.empty())) return;
    const std::string id = settings_id(checkpoint_identity(run));
    for (const StepFolder& f : step_folders(checkpoint_folder(c)))
        if (f.partial && f.checkpoint && f.settings == id)
            if (const std::string left = remove_checkpoint(f); !left.empty())
                std::fprintf(stderr, "note: %s\n", left.c_str());
}

std::string remove_checkpoint(const StepFolder& f) {
    if (f.link) return "left " + f.path + ": a link (nothing is removed through a link)";
    if (!f.folder) return "left " + f.path + ": not a folder";
    // Renamed first: a clean-up cut short (SIGKILL) leaves step_N.pruning,
    // which no reader takes for a checkpoint missing its files.
    std::error_code error;
    const std::string doomed = f.path + ".pruning";
    fs::rename(f.path, doomed, error);
    const std::string& at = error ? f.path : doomed;
    std::vector<std::string> names = f.files;
    for (const char* name : {kLevels[0], kLevels[1], kTraces, "checkpoint.json"})
        names.push_back(name);
    std::error_code ignored;
    for (const std::string& name : names)
        if (name.find('/') == std::string::npos && name != "." && name != "..")
            for (const std::string& file : {name, partial_path(name)})
                if (fs::is_regular_file(fs::symlink_status(at + "/" + file, ignored)))
                    fs::remove(at + "/" + file, ignored);
    if (fs::remove(at, ignored)) return {};
    if (!error) fs::rename(doomed, f.path, ignored);
    // Left: the user's files, or the program's own it could not remove.
    for (const std::string& name : names)
        if (fs::exists(fs::symlink_status(f.path + "/" + name, ignored)))
            return "left " + f.path + ": cannot remove its " + name + " (permissions?)";
    return "left " + f.path + ": it holds files the checkpoint did not write";
}

std::string clear_way(const std::string& path, const std::string& mine,
                      std::vector<std::string>& notes) {
    std::error_code error;
    if (!fs::exists(fs::symlink_status(path, error))) return {};
    const StepFolder f = read_step_folder(path);
    if (!f.link && (!f.checkpoint || f.settings != mine))
        return "checkpoint " + path + (f.folder ? ": a folder" : ": a file") +
               " this run did not write is in the way; move it, or choose another "
               "--checkpoint-dir";
    // An earlier try that completed, or a .partial one, is removed; one that
    // does not verify is left whole, moved aside.
    if ((f.verified || f.partial) && remove_checkpoint(f).empty()) return {};
    // What is left is not the program's to remove: moved aside, whole.
    std::string aside;
    if (std::string why = move_aside(path, aside); !why.empty()) return why;
    notes.push_back("moved " + path + " to " + aside +
                    (f.link ? ": a link"
                     : !f.verified && !f.partial
                         ? ": it does not verify"
                         : ": it holds files the checkpoint did not write"));
    return {};
}

std::string move_aside(const std::string& path, std::string& aside) {
    // The first free name: what an earlier one moved there is kept too.
    std::error_code error;
    aside = path + ".kept";
    for (int n = 1; fs::exists(fs::symlink_status(aside, error)); ++n) {
        if (n > 999) return "checkpoint " + path + " must make way, and " + aside + " is taken";
        aside = path + ".kept." + std::to_string(n);
    }
    // A folder made there since the look would be replaced only if empty
    // (rename(2)): nothing of anyone's is lost.
    fs::rename(path, aside, error);
    if (error) return "checkpoint " + path + ": cannot move it aside (" + error.message() + ")";
    return {};
}

std::string set_aside(const std::string& path, const std::string& why) {
    std::string aside;
    if (const std::string problem = move_aside(path, aside); !problem.empty())
        return "left in place: " + problem;
    if (FILE* f = std::fopen((aside + "/" + kSetAsideNote).c_str(), "w")) {
        std::fprintf(f,
                     "A restart passed this checkpoint by: %s.\n"
                     "Set aside whole, never removed; the run continued from an earlier one.\n",
                     why.c_str());
        std::fclose(f);
    }
    return "set aside as " + aside;
}

void keep_two_newest(const std::string& folder, const std::string& mine) {
    std::vector<StepFolder> kept;
    for (const StepFolder& f : step_folders(folder))
        if (f.verified && f.settings == mine) kept.push_back(f);
    for (std::size_t n = 0; n + 2 < kept.size(); ++n)
        if (const std::string left = remove_checkpoint(kept[n]); !left.empty())
            std::fprintf(stderr, "note: %s\n", left.c_str());
}

} // namespace stencil
