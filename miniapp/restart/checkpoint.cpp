#include "restart/checkpoint.hpp"

#include "io/checked_io.hpp"
#include "io/crc32.hpp"
#include "io/field_file.hpp"
#include "mpi_util.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <type_traits>

namespace fs = std::filesystem;

namespace stencil {
namespace {

constexpr const char* kLevels[2] = {"p.raw", "p_prev.raw"};
constexpr const char* kTraces = "traces.bin";

// A file's entry in checkpoint.json: its length and CRC-32 (zero, which no
// written file has, when the entry is missing or not one).
FieldFile listed(const Json& files, const char* name) {
    const Json entry = files.value(name, Json::object());
    FieldFile expected;
    if (!entry.is_object()) return expected;
    expected.bytes = entry.value("bytes", std::uint64_t(0));
    if (!parse_crc32_hex(entry.value("crc32", std::string()), expected.crc32)) expected.bytes = 0;
    return expected;
}

std::string step_name(int step) {
    char name[32];
    std::snprintf(name, sizeof name, "step_%06d", step);
    return name;
}

// The receivers a run records (the file's and the line's), by their count
// and the CRC-32 of their cells: the list itself may be long.
Json receivers_identity(const Options& c, const RunPlan& plan, const Physics& p) {
    std::vector<int> cells;
    for (const auto& r : plan.receivers)
        cells.insert(cells.end(), r.begin(), r.end());
    if (c.line_axis == 2)
        for (int x = 0; x < plan.grid[0]; ++x)
            cells.insert(cells.end(), {x, p.source[1], c.line_index});
    return {{"count", cells.size() / 3},
            {"crc32", crc32_hex(crc32_of(cells.data(), cells.size() * sizeof(int)))}};
}

// Everything that changes the result, the outputs included: a checkpoint
// continues only a run that agrees on all of it, so the continued run's
// snapshots, slices and traces are the uninterrupted run's. Timing options
// (steps, comm, overlap, depth, graphs, tuning, ranks) may differ: none of
// them changes a bit.
Json identity(const Options& c, const RunPlan& plan, const Physics& p) {
    return {{"grid", plan.grid},
            {"radius", c.radius},
            {"precision", precision_name(c.precision)},
            {"spacing_m", c.spacing},
            {"dt_s", p.dt},
            {"f0_hz", p.f0},
            // A model file by its contents: it may be moved between the runs.
            {"model", c.model == ModelKind::File ? "file, CRC-32 " + crc32_hex(plan.model_crc32)
                                                 : model_name(c, plan)},
            {"source", p.source},
            {"sponge", c.sponge},
            {"periodic", periodic_axes(c.periodic)},
            {"snapshot_every", c.snapshot_every},
            {"slice", c.slice_axis < 0 ? std::string("none")
                                       : std::string(1, "xyz"[c.slice_axis]) + "=" +
                                             std::to_string(c.slice_index)},
            {"receivers", receivers_identity(c, plan, p)}};
}

// Rank 0's text of a small file, on every rank ("" if it cannot be read).
std::string read_on_root(const std::string& path) {
    std::string text;
    if (world_rank() == 0) {
        std::ifstream in(path);
        std::ostringstream all;
        all << in.rdbuf();
        if (in) text = all.str();
    }
    return broadcast_text(MPI_COMM_WORLD, text);
}

// The complete checkpoints in `folder` (not .partial), oldest first:
// step_NNNNNN sorts by step.
std::vector<fs::path> complete_checkpoints(const std::string& folder) {
    std::vector<fs::path> found;
    std::error_code ignored;
    for (const auto& entry : fs::directory_iterator(folder, ignored)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind("step_", 0) == 0 && name.find(".partial") == std::string::npos)
            found.push_back(entry.path());
    }
    std::sort(found.begin(), found.end());
    return found;
}

// The checkpoints `restart` names, newest first (rank 0 looks; every rank gets them).
std::vector<std::string> candidates(const Options& c) {
    std::string list;
    if (world_rank() == 0) {
        const std::string named = c.restart == "latest" ? checkpoint_folder(c) : c.restart;
        std::error_code ignored;
        if (fs::exists(fs::path(named) / "checkpoint.json", ignored)) {
            list = named + "\n";
        } else {
            const std::vector<fs::path> found = complete_checkpoints(named);
            for (auto p = found.rbegin(); p != found.rend(); ++p)
                list += p->string() + "\n";
        }
    }
    std::vector<std::string> out;
    std::istringstream lines(broadcast_text(MPI_COMM_WORLD, list));
    for (std::string line; std::getline(lines, line);)
        out.push_back(line);
    return out;
}

// Rank 0: removes all but the two newest complete checkpoints.
void keep_two_newest(const std::string& folder) {
    const std::vector<fs::path> complete = complete_checkpoints(folder);
    std::error_code ignored;
    for (std::size_t n = 0; n + 2 < complete.size(); ++n)
        fs::remove_all(complete[n], ignored);
}

} // namespace

std::string checkpoint_folder(const Options& c) {
    return c.checkpoint_dir.empty() ? c.output + "/checkpoints" : c.checkpoint_dir;
}

std::string checkpoint_path(const Options& c, int step) {
    return checkpoint_folder(c) + "/" + step_name(step);
}

void write_checkpoint(const Simulation& sim, Outputs& outputs, const Options& c,
                      const RunPlan& plan, const Physics& physics, CheckpointStaging& staging) {
    const std::string folder = checkpoint_folder(c), final = checkpoint_path(c, sim.steps_done());
    const std::string partial = final + ".partial";
    std::string problem;
    if (world_rank() == 0) {
        std::error_code error;
        fs::remove_all(partial, error);
        fs::create_directories(partial, error);
        if (error)
            problem = "checkpoint " + partial + ": cannot create it (" + error.message() + ")";
    }
    if (const std::string why = first_problem(MPI_COMM_WORLD, problem); !why.empty())
        throw OutputFailure(why);
    Json files = Json::object();
    dispatch_precision(c.precision, [&](auto zero) {
        auto& values = [&]() -> std::vector<decltype(zero)>& {
            if constexpr (std::is_same_v<decltype(zero), float>)
                return staging.fp32;
            else
                return staging.fp64;
        }();
        for (int level = 0; level < 2; ++level) {
            sim.interior_in_precision(values, level == 1);
            const FieldFile written = write_field_file(
                sim.decomposition(), partial + "/" + kLevels[level], values, false);
            files[kLevels[level]] = {{"bytes", written.bytes}, {"crc32", crc32_hex(written.crc32)}};
        }
        return 0;
    });
    if (FieldFile written; outputs.save_traces_to(partial + "/" + kTraces, written))
        files[kTraces] = {{"bytes", written.bytes}, {"crc32", crc32_hex(written.crc32)}};
    if (world_rank() == 0) {
        const Json doc = {{"program", "stencil-miniapp checkpoint"},
                          {"step", sim.steps_done()},
                          {"run", plan.run_id},
                          {"configuration", identity(c, plan, physics)},
                          {"files", files}};
        problem = write_file_completely(partial + "/checkpoint.json", json_text(doc));
        std::error_code error;
        if (problem.empty()) {
            fs::remove_all(final, error); // a checkpoint of the same step, from an earlier try
            fs::rename(partial, final, error);
            if (error) problem = "checkpoint " + final + ": " + error.message();
        }
        if (problem.empty()) keep_two_newest(folder);
    }
    if (const std::string why = first_problem(MPI_COMM_WORLD, problem); !why.empty())
        throw OutputFailure(why);
}

std::string restore_checkpoint(Simulation& sim, Outputs& outputs, const Options& c,
                               const RunPlan& plan, const Physics& physics, int& step) {
    const std::vector<std::string> found = candidates(c);
    const std::string named = c.restart == "latest" ? checkpoint_folder(c) : c.restart;
    if (found.empty()) return "--restart " + c.restart + ": no checkpoint in " + named;
    const Json mine = identity(c, plan, physics);
    for (const std::string& dir : found) {
        const auto skip = [&](const std::string& why) {
            if (world_rank() == 0)
                std::fprintf(stderr,
                             "note: checkpoint %s does not verify (%s); trying the one before\n",
                             dir.c_str(), why.c_str());
        };
        const Json doc = Json::parse(read_on_root(dir + "/checkpoint.json"), nullptr, false);
        if (doc.is_discarded() || !doc.contains("configuration") || !doc.contains("files") ||
            !doc.contains("step")) {
            skip("checkpoint.json is missing or not a checkpoint's");
            continue;
        }
        for (const auto& [key, value] : mine.items())
            if (doc["configuration"].value(key, Json()) != value)
                return "--restart " + dir + ": the checkpoint's " + key + " is " +
                       doc["configuration"].value(key, Json()).dump() + ", this run's is " +
                       value.dump() + " (only timing options may change across a restart)";
        step = doc["step"].get<int>();
        if (step >= c.steps)
            return "--restart " + dir + ": the checkpoint is at step " + std::to_string(step) +
                   ", and --steps " + std::to_string(c.steps) + " asks for no more";
        std::vector<double> levels[2];
        std::string damaged;
        for (int level = 0; level < 2 && damaged.empty(); ++level) {
            const FieldFile expected = listed(doc["files"], kLevels[level]);
            const std::string path = dir + "/" + kLevels[level];
            damaged = dispatch_precision(c.precision, [&](auto zero) {
                using T = decltype(zero);
                std::vector<T> values;
                const std::string why =
                    read_field_file(sim.decomposition(), path, expected, values);
                levels[level].assign(values.begin(), values.end());
                return why.empty() ? why : std::string(kLevels[level]) + ": " + why;
            });
        }
        if (damaged.empty() && mine["receivers"]["count"].get<std::size_t>() > 0)
            damaged = outputs.load_traces(dir + "/" + kTraces, listed(doc["files"], kTraces), step);
        if (!damaged.empty()) {
            skip(damaged);
            continue;
        }
        sim.restore(step, levels[0], levels[1]);
        outputs.resume_at(step);
        if (world_rank() == 0)
            std::fprintf(stderr, "note: continuing from checkpoint %s at step %d\n", dir.c_str(),
                         step);
        return {};
    }
    return "--restart " + c.restart + ": no checkpoint in " + named + " verifies";
}

} // namespace stencil
