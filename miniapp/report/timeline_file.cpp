#include "report/timeline_file.hpp"

#include "config/model_file.hpp"
#include "io/checked_io.hpp"
#include "io/output_folder.hpp"
#include "mpi_util.hpp"
#include "restart/checkpoint.hpp"
#include "restart/checkpoint_identity.hpp"

#include <cmath>
#include <filesystem>

namespace stencil {

std::string end_file_problem(const Options& c, const std::string& option, const std::string& file) {
    const std::string named = option + " " + file;
    // The files the run reads or writes by a name the user gave, and the
    // model's sidecar, which it reads beside the raw file.
    const std::string model = c.model == ModelKind::File ? c.model_path : std::string();
    const std::pair<const char*, std::string> others[] = {
        {"--report", c.report},
        {"--timeline", c.timeline},
        {"--receivers", c.receivers_file},
        {"--model", model},
        {"--model's sidecar", model.empty() ? model : sidecar_path(model)},
        {"--tuning",
         c.tuning_mode == "off" || c.tuning_mode == "auto" ? std::string() : c.tuning_mode},
    };
    for (const auto& [other, path] : others)
        if (other != option && same_path(file, path))
            return named + ": the same file as " + other + " " + path + "; name another";
    // The written files' temporary names (partial_path) are theirs too.
    for (const auto& [other, path] : {std::pair{"--report", c.report}, {"--timeline", c.timeline}})
        if (other != option && !path.empty() && same_path(file, partial_path(path)))
            return named + ": the name " + other + " " + path + " is written under; name another";
    // Folders the run fills: the output folder itself, and the checkpoints,
    // which a restart reads.
    if (same_path(file, c.output))
        return named + ": the --output folder " + c.output + "; name a file";
    const std::string checkpoints = checkpoint_folder(c);
    if (within(file, checkpoints))
        return named + ": inside the checkpoint folder " + checkpoints + "; name another";
    // The checkpoint a restart reads may lie outside that folder.
    if (!c.restart.empty() && c.restart != "latest" && within(file, c.restart))
        return named + ": inside the checkpoint --restart " + c.restart + " reads; name another";
    // A name the run writes into its output folder.
    const std::filesystem::path path(file);
    if (same_path(path.parent_path().empty() ? "." : path.parent_path().string(), c.output) &&
        is_run_output_name(path.filename().string()))
        return named + ": a file the run writes into --output " + c.output + "; name another";
    // A name this program's runs give their outputs, in any folder: it may
    // be another run's lock, record, sidecar or checkpoint.
    int step = 0;
    bool partial = false;
    if (is_run_output_name(path.filename().string()) ||
        parse_step_name(path.parent_path().filename().string(), step, partial))
        return named + ": a name this program's runs write (an output, a lock, a record, a "
                       "checkpoint's file); name another";
    // A FIFO or a device would be replaced by the file written beside it.
    std::error_code error;
    const auto status = std::filesystem::status(file, error);
    if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status) &&
        !std::filesystem::is_directory(status))
        return named + ": not a regular file; name a file";
    // Every write goes to a new file, or replaces one only where asked.
    if (std::filesystem::is_regular_file(status) && !c.output_force)
        return named + ": the file exists; name another, or pass --output-force to replace it";
    return output_file_problem(option, file);
}

namespace {

const char* const kLaneNames[] = {"host", "compute stream", "halo stream"};

// The "M" events that name a rank's process and its three threads, and
// keep them in rank and lane order.
void add_metadata(Json& events, int rank) {
    events.push_back({{"name", "process_name"},
                      {"ph", "M"},
                      {"pid", rank},
                      {"args", {{"name", "rank " + std::to_string(rank)}}}});
    events.push_back({{"name", "process_sort_index"},
                      {"ph", "M"},
                      {"pid", rank},
                      {"args", {{"sort_index", rank}}}});
    for (int lane = 0; lane < 3; ++lane) {
        events.push_back({{"name", "thread_name"},
                          {"ph", "M"},
                          {"pid", rank},
                          {"tid", lane},
                          {"args", {{"name", kLaneNames[lane]}}}});
        events.push_back({{"name", "thread_sort_index"},
                          {"ph", "M"},
                          {"pid", rank},
                          {"tid", lane},
                          {"args", {{"sort_index", lane}}}});
    }
}

// What the spans are of: the run's settings, each step's schedule.
Json other_data(const Report& r, const Timeline& timeline) {
    Json doc = run_context_json(r);
    doc.update(
        Json{{"device_spans", r.graphs ? "events of the sampled graph twin (recorded inside the "
                                         "graph, around each phase's work)"
                                       : "events recorded on the phase's stream before and after "
                                         "its work"},
             {"host_spans", "the host's clock before and after the phase"},
             {"clock", "microseconds from an MPI_Barrier at the first sampled step; device "
                       "events put on the host clock by an anchor event on the compute stream"},
             {"sampled", "the first " + std::to_string(Timeline::kKeepCycles) +
                             " sampled deep-halo cycles (one cycle in " +
                             std::to_string(kPhaseSampling) + " is sampled)"},
             {"schedules", timeline.schedules()},
             {"schedule_note", "schedules[ring_step]: the step's phases in order "
                               "(step_phases describe()); args.ring_step of each span names its "
                               "schedule, args.index its place there"}});
    return doc;
}

Json trace(const Report& r, const Timeline& timeline, const std::vector<double>& flat,
           const std::vector<int>& starts) {
    Json events = Json::array();
    const int ranks = int(starts.size());
    for (int rank = 0; rank < ranks; ++rank)
        add_metadata(events, rank);
    constexpr int kF = TimelineSpan::kFields;
    for (int rank = 0; rank < ranks; ++rank) {
        const std::size_t end = rank + 1 < ranks ? std::size_t(starts[rank + 1]) : flat.size();
        for (std::size_t at = std::size_t(starts[rank]); at + kF <= end; at += kF) {
            const double* f = &flat[at];
            TimelineSpan s;
            s.start_us = f[0], s.dur_us = f[1], s.step = f[2], s.kind = f[3], s.lane = f[4],
            s.ring_step = f[5], s.index = f[6];
            // To the nanosecond: below what the clocks resolve, and a smaller file.
            const auto ns = [](double us) { return std::round(us * 1e3) * 1e-3; };
            events.push_back({{"name", phase_name(PhaseKind(int(s.kind)))},
                              {"cat", "phase"},
                              {"ph", "X"},
                              {"ts", ns(s.start_us)},
                              {"dur", ns(s.dur_us)},
                              {"pid", rank},
                              {"tid", int(s.lane)},
                              {"args",
                               {{"step", int(s.step)},
                                {"ring_step", int(s.ring_step)},
                                {"index", int(s.index)}}}});
        }
    }
    return {{"traceEvents", std::move(events)},
            {"displayTimeUnit", "ms"},
            {"otherData", other_data(r, timeline)}};
}

} // namespace

std::string write_timeline(const PhaseTimeline& sim, Report& report) {
    const Timeline* timeline = sim.timeline();
    if (!timeline) return "--timeline: the run recorded no timeline"; // a bug: record_timeline()
    std::vector<double> mine;
    for (const TimelineSpan& s : timeline->spans())
        mine.insert(mine.end(),
                    {s.start_us, s.dur_us, s.step, s.kind, s.lane, s.ring_step, s.index});
    std::vector<int> starts;
    const std::vector<double> all = gather_to_root(MPI_COMM_WORLD, mine, &starts);
    if (world_rank() != 0) return {};
    const std::string& path = report.options.timeline;
    const std::string text = json_text(trace(report, *timeline, all, starts), -1);
    // Never over a file the user did not ask to replace (--output-force).
    const std::string why = write_user_file(path, text, report.options.output_force);
    if (why.empty()) report.timeline = path;
    return why;
}

} // namespace stencil
