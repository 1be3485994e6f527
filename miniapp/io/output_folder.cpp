#include "io/output_folder.hpp"
#include "io/run_manifest.hpp"

#include "io/checked_io.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <dirent.h>
#include <fcntl.h>
#include <filesystem>
#include <regex>
#include <sstream>
#include <sys/statvfs.h>
#include <unistd.h>
#include <utility>

namespace stencil {
namespace {

std::string read_small_file(const std::string& path) {
    std::string text;
    if (std::FILE* f = std::fopen(path.c_str(), "r")) {
        char buffer[1024];
        for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, f)) > 0;)
            text.append(buffer, n);
        std::fclose(f);
    }
    return text;
}

// From /proc/PID/stat (Linux): the process's state letter and its start
// time in clock ticks after boot. False where there is no such file.
bool process_stat(long pid, char& state, long long& start) {
    const std::string text = read_small_file("/proc/" + std::to_string(pid) + "/stat");
    const auto paren = text.rfind(')'); // the command name may hold spaces and parentheses
    if (paren == std::string::npos) return false;
    std::istringstream fields(text.substr(paren + 1));
    std::string field;
    fields >> state;
    for (int n = 4; n < 22 && fields >> field; ++n) {
    }
    return bool(fields >> start);
}

enum class Owner { Alive, Dead, Requeued, Unknown };

Owner owner_state(const RunIdentity& owner, const RunIdentity& me) {
    // The scheduler runs one attempt of a job at a time: a requeued job's
    // earlier attempt is over, wherever it ran.
    if (!owner.job_id.empty() && owner.job_id == me.job_id && owner.job_attempt < me.job_attempt)
        return Owner::Requeued;
    if (owner.host != me.host || owner.pid <= 0) return Owner::Unknown;
    if (::kill(pid_t(owner.pid), 0) != 0 && errno != EPERM) return Owner::Dead;
    // A killed rank stays a zombie until its launcher reaps it, and a PID
    // may since belong to another process.
    char state = '?';
    long long start = 0;
    if (process_stat(owner.pid, state, start) &&
        (state == 'Z' || state == 'X' || (owner.pid_start > 0 && start != owner.pid_start)))
        return Owner::Dead;
    return Owner::Alive;
}

bool ends_with(const std::string& s, const char* suffix) {
    const std::size_t n = std::strlen(suffix);
    return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

} // namespace

RunIdentity RunIdentity::of_this_process() {
    RunIdentity me;
    char host[256] = {0};
    if (::gethostname(host, sizeof host - 1) == 0) me.host = host;
    me.pid = long(::getpid());
    char state = '?';
    process_stat(me.pid, state, me.pid_start);
    for (const char* variable : {"SLURM_JOB_ID", "PBS_JOBID", "LSB_JOBID", "FLUX_JOB_ID"})
        if (const char* v = std::getenv(variable); v && *v) {
            me.job_id = v;
            break;
        }
    if (const char* v = std::getenv("SLURM_RESTART_COUNT"); v && *v) me.job_attempt = std::atoi(v);
    char when[32];
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    std::strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &utc);
    me.started = when;
    return me;
}

std::string RunIdentity::json() const {
    return json_text({{"host", host},
                      {"pid", pid},
                      {"pid_start", pid_start},
                      {"job_id", job_id},
                      {"job_attempt", job_attempt},
                      {"started", started}},
                     -1);
}

std::string RunIdentity::describe() const {
    return "host " + host + ", pid " + std::to_string(pid) +
           (job_id.empty() ? "" : ", job " + job_id) + ", started " + started;
}

std::string RunIdentity::id() const {
    return host + ":" + std::to_string(pid) + ":" + started;
}

bool parse_run_identity(const std::string& text, RunIdentity& out) {
    const Json doc = Json::parse(text, nullptr, false);
    if (!doc.is_object()) return false;
    const Json host = doc.value("host", Json()), pid = doc.value("pid", Json()),
               started = doc.value("started", Json());
    if (!host.is_string() || !pid.is_number_integer() || !started.is_string() || pid <= 0)
        return false;
    out.host = host.get<std::string>();
    out.pid = pid.get<long>();
    out.started = started.get<std::string>();
    if (const Json job = doc.value("job_id", Json()); job.is_string()) out.job_id = job;
    if (const Json attempt = doc.value("job_attempt", Json()); attempt.is_number_integer())
        out.job_attempt = attempt.get<int>();
    if (const Json start = doc.value("pid_start", Json()); start.is_number_integer())
        out.pid_start = start.get<long long>();
    return true;
}

OutputFolderLock::OutputFolderLock(OutputFolderLock&& other) noexcept
    : path_(std::exchange(other.path_, {})), contents_(std::exchange(other.contents_, {})) {}

OutputFolderLock& OutputFolderLock::operator=(OutputFolderLock&& other) noexcept {
    if (this != &other) {
        release();
        path_ = std::exchange(other.path_, {});
        contents_ = std::exchange(other.contents_, {});
    }
    return *this;
}

std::string OutputFolderLock::take(const std::string& folder, bool force, const RunIdentity& me,
                                   std::string& note, const std::string& named) {
    release();
    const std::string option = named.empty() ? "--output " + folder : named;
    const std::string path = folder + "/" + kFileName, contents = me.json();
    for (int attempt = 0; attempt < 2; ++attempt) {
        const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (fd >= 0) {
            const bool written =
                ::write(fd, contents.data(), contents.size()) == ssize_t(contents.size());
            if (::close(fd) != 0 || !written) {
                ::unlink(path.c_str());
                return option + ": cannot write the lock file " + path;
            }
            path_ = path, contents_ = contents;
            return {};
        }
        if (errno != EEXIST)
            return option + ": cannot create the lock file " + path + " (" + std::strerror(errno) +
                   ")";
        if (attempt > 0) break; // someone else took it between our unlink and open
        RunIdentity owner;
        const bool readable = parse_run_identity(read_small_file(path), owner);
        const Owner state = readable ? owner_state(owner, me) : Owner::Unknown;
        const std::string who = readable ? owner.describe() : "an unreadable lock";
        if (state == Owner::Alive)
            return option + " is in use by a running job (" + who +
                   "); give each run its own folder";
        if (state == Owner::Requeued) {
            note = option + ": replaced the lock of this job's earlier attempt (" + who + ")";
        } else if (state == Owner::Dead) {
            // Same host, and its process is gone (or the PID is another
            // process's now): a run killed before it could remove its lock.
            note = option + ": took over the lock of a run that died (" + who + ")";
        } else if (!force) {
            return option + " has a lock from a run that cannot be checked from here (" + who +
                   "); if no run uses it, remove " + path + " or pass --output-force";
        } else {
            note = "--output-force: replaced the lock of an unverifiable run (" + who + ")";
        }
        if (::unlink(path.c_str()) != 0 && errno != ENOENT)
            return option + ": cannot remove the old lock " + path + " (" + std::strerror(errno) +
                   ")";
    }
    return option + " was taken by another run at the same moment";
}

void OutputFolderLock::release() noexcept {
    if (path_.empty()) return;
    // Only our own lock: a forced run may have replaced it meanwhile.
    if (read_small_file(path_) == contents_) ::unlink(path_.c_str());
    path_.clear(), contents_.clear();
}

bool is_run_output_name(const std::string& name) {
    // Exactly the names the run writes (a step is 6 digits or more), so that
    // --output-force and a restart never remove a user's snapshot_notes.json
    // or data.partial: a .partial only where the name it stands for is ours.
    static const std::regex ours(
        R"((snapshot_[0-9]{6,}\.(raw|h5|json|xmf))|(slice_[xyz][0-9]+_[0-9]{6,}\.png))"
        R"(|snapshots\.xmf|traces\.bin|traces\.sgy|traces\.json|shot_gather\.png)");
    if (name == OutputFolderLock::kFileName || name == RunManifest::kFileName ||
        std::regex_match(name, ours))
        return true;
    return is_partial_name(name) && is_run_output_name(name.substr(0, name.size() - 8));
}

bool is_partial_name(const std::string& name) {
    return name.size() > 8 && ends_with(name, ".partial");
}

std::string unrecorded_outputs_problem(const std::string& dir,
                                       const std::vector<std::string>& names,
                                       const std::string& consequence) {
    return "--output " + dir + " holds " + names.front() + " (of " + std::to_string(names.size()) +
           " files named as this program's outputs) that no record of a run lists (" +
           RunManifest::kFileName + "): " + consequence + "; move them, or choose another folder";
}

std::vector<std::string> earlier_outputs(const std::string& folder) {
    std::vector<std::string> found;
    DIR* dir = ::opendir(folder.c_str());
    if (!dir) return found;
    while (const dirent* entry = ::readdir(dir)) {
        const std::string name = entry->d_name;
        if (is_run_output_name(name) && name != OutputFolderLock::kFileName &&
            name != RunManifest::kFileName)
            found.push_back(name);
    }
    ::closedir(dir);
    std::sort(found.begin(), found.end());
    return found;
}

std::string output_file_problem(const std::string& option, const std::string& path) {
    const std::string named = option + " " + path;
    std::error_code ignored;
    if (std::filesystem::is_directory(path, ignored))
        return named + ": a directory; name a file, such as " + path + "/" + option.substr(2) +
               ".json";
    // Through the partial name the file is written under, created as the
    // write will create it, so that no empty file is left behind and none
    // of the user's is touched.
    const int fd = create_partial(path);
    if (fd < 0 && errno == EEXIST) return named + ": " + partial_problem(path, EEXIST);
    if (fd < 0) return named + ": cannot write there (" + std::strerror(errno) + ")";
    ::close(fd);
    ::unlink(partial_path(path).c_str());
    return {};
}

namespace {

// `p` absolute, with every part that exists resolved (links, "..").
std::filesystem::path full_path(const std::string& p) {
    std::error_code error;
    return std::filesystem::weakly_canonical(std::filesystem::absolute(p, error), error);
}

} // namespace

bool same_path(const std::string& a, const std::string& b) {
    if (a.empty() || b.empty()) return false;
    return full_path(a) == full_path(b);
}

bool within(const std::string& path, const std::string& folder) {
    if (path.empty() || folder.empty()) return false;
    const auto f = full_path(folder);
    for (auto p = full_path(path); !p.empty() && p != p.root_path(); p = p.parent_path())
        if (p == f) return true;
    return false;
}

std::uint64_t free_bytes(const std::string& folder) {
    struct statvfs fs {};
    if (::statvfs(folder.c_str(), &fs) != 0) return UINT64_MAX;
    return std::uint64_t(fs.f_bavail) * std::uint64_t(fs.f_frsize);
}

std::string human_bytes(std::uint64_t bytes) {
    const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB"};
    double value = double(bytes);
    int unit = 0;
    while (value >= 1024 && unit < 5)
        value /= 1024, ++unit;
    char text[32];
    std::snprintf(text, sizeof text, unit ? "%.1f %s" : "%.0f %s", value, units[unit]);
    return text;
}

} // namespace stencil
