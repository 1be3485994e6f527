#include "restart/checkpoint.hpp"
#include "restart/checkpoint_identity.hpp"
#include "restart/checkpoint_verdict.hpp"

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
        int step = 0;
        bool partial = false;
        if (parse_step_name(entry.path().filename().string(), step, partial) && !partial)
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

// Rank 0: the folder a checkpoint is assembled in, made afresh, named by
// an unfinished checkpoint.json (the run and its settings, no files) so
// that the clean-up knows it for this run's.
std::string start_partial(const std::string& partial, const Json& head) {
    std::vector<std::string> notes;
    std::string why = clear_way(partial, head["settings"], notes);
    for (const std::string& note : notes)
        std::fprintf(stderr, "note: %s\n", note.c_str());
    if (!why.empty()) return why;
    std::error_code error;
    fs::create_directories(partial, error);
    if (error) return "checkpoint " + partial + ": cannot create it (" + error.message() + ")";
    return write_file_completely(partial + "/checkpoint.json", json_text(head));
}

// Rank 0: checkpoint.json, sealed by its CRC-32, written last; then the
// folder takes its final name, and the older checkpoints of this run go.
std::string finish_partial(const std::string& partial, const std::string& final, Json doc) {
    seal(doc);
    std::string problem = write_file_completely(partial + "/checkpoint.json", json_text(doc));
    std::vector<std::string> notes;
    if (problem.empty()) problem = clear_way(final, doc["settings"], notes); // an earlier try's
    for (const std::string& note : notes)
        std::fprintf(stderr, "note: %s\n", note.c_str());
    std::error_code error;
    if (problem.empty()) {
        fs::rename(partial, final, error);
        if (error) problem = "checkpoint " + final + ": " + error.message();
    }
    if (problem.empty()) keep_two_newest(fs::path(final).parent_path().string(), doc["settings"]);
    return problem;
}

// Both time levels into `partial`, their entries into `files`.
void write_levels(const Simulation& sim, const Options& c, const std::string& partial,
                  CheckpointStaging& staging, Json& files) {
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
}

// Why checkpoint.json (`doc`, unsealed on success) of the checkpoint in
// `dir` is not one to continue: not a checkpoint's, a CRC-32 that differs,
// or a step its folder's name does not say. "" if it is.
std::string doc_problem(const std::string& dir, Json& doc) {
    if (doc.is_discarded() || !doc.is_object() || !doc.contains("configuration") ||
        !doc.contains("files") || !doc.contains("step"))
        return "checkpoint.json is missing or not a checkpoint's";
    if (std::string why = unseal(doc); !why.empty()) return why;
    int named = 0;
    bool partial = false;
    const Json step = doc["step"];
    if (!parse_step_name(fs::path(dir).filename().string(), named, partial) || partial)
        return "its folder's name is not step_NNNNNN";
    if (!step.is_number_integer() || step.get<int>() != named)
        return "its folder says step " + std::to_string(named) + ", checkpoint.json step " +
               step.dump();
    return {};
}

// " (checkpoints are in DIR/checkpoints)" where --restart names an output
// folder rather than its checkpoints; else "".
std::string hint(const std::string& named) {
    std::error_code ignored;
    const std::string inside = named + "/checkpoints";
    return fs::is_directory(inside, ignored) ? " (checkpoints are in " + inside + ")" : "";
}

} // namespace

std::string checkpoint_folder(const Options& c) {
    return c.checkpoint_dir.empty() ? c.output + "/checkpoints" : c.checkpoint_dir;
}

std::string checkpoint_path(const Options& c, int step) {
    return checkpoint_folder(c) + "/" + step_name(step);
}

void write_checkpoint(const Simulation& sim, Outputs& outputs, const RunContext& run,
                      CheckpointStaging& staging) {
    const Options& c = run.options;
    const RunPlan& plan = run.plan;
    const std::string final = checkpoint_path(c, sim.steps_done()), partial = final + ".partial";
    const Json mine = checkpoint_identity(run);
    Json doc = {
        {"program", kCheckpointProgram}, {"step", sim.steps_done()},      {"run", plan.run_id},
        {"lineage", outputs.lineage()},  {"settings", settings_id(mine)}, {"configuration", mine}};
    // Not in the configuration: a restart may change the halo path, and
    // inherits what the field is (io/provenance.hpp).
    doc["provenance"] = outputs.provenance().json();
    // Where the record that will hold the run's verdict is (a restart
    // inherits a failed one: restart/checkpoint_verdict.hpp).
    doc["output"] = record_folder_for_checkpoints(c);
    std::string problem;
    if (world_rank() == 0) problem = start_partial(partial, doc);
    if (const std::string why = first_problem(MPI_COMM_WORLD, problem); !why.empty())
        throw OutputFailure(why);
    Json files = Json::object();
    write_levels(sim, c, partial, staging, files);
    if (FieldFile written; outputs.save_traces_to(partial + "/" + kTraces, written))
        files[kTraces] = {{"bytes", written.bytes}, {"crc32", crc32_hex(written.crc32)}};
    doc["files"] = files;
    if (world_rank() == 0) problem = finish_partial(partial, final, doc);
    if (const std::string why = first_problem(MPI_COMM_WORLD, problem); !why.empty())
        throw OutputFailure(why);
    outputs.reached(sim.steps_done());
}

namespace {

// Collective: both time levels of the checkpoint in `dir` (its files as
// `files` lists them) into `levels`; "" or why one does not verify.
std::string read_levels(const Simulation& sim, const Options& c, const std::string& dir,
                        const Json& files, std::vector<double> (&levels)[2]) {
    std::string damaged;
    for (int level = 0; level < 2 && damaged.empty(); ++level) {
        const FieldFile expected = listed(files, kLevels[level]);
        const std::string path = dir + "/" + kLevels[level];
        damaged = dispatch_precision(c.precision, [&](auto zero) {
            using T = decltype(zero);
            std::vector<T> values;
            const std::string why = read_field_file(sim.decomposition(), path, expected, values);
            levels[level].assign(values.begin(), values.end());
            return why.empty() ? why : std::string(kLevels[level]) + ": " + why;
        });
    }
    return damaged;
}

// Collective: a checkpoint in `dir` that does not verify (`why`), passed
// by: set aside in the run's own checkpoint folder (`own_folder`), where
// the run would write its step again. "" to try the one before; else the
// refusal, where it cannot be set aside: it is never written over.
std::string pass_by(const std::string& dir, const std::string& why, bool own_folder) {
    MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD)); // every rank done reading it
    std::string refusal;
    if (world_rank() == 0) {
        const std::string moved =
            own_folder ? set_aside(dir, "it does not verify (" + why + ")") : "";
        if (moved.rfind("left", 0) == 0)
            refusal = "--restart: checkpoint " + dir + " does not verify (" + why + ") and is " +
                      moved + "; the run would write its step over it";
        else
            std::fprintf(stderr,
                         "note: checkpoint %s does not verify (%s)%s; trying the one before\n",
                         dir.c_str(), why.c_str(), moved.empty() ? "" : ("; " + moved).c_str());
    }
    return first_problem(MPI_COMM_WORLD, refusal);
}

// Why the run cannot continue from the verified checkpoint in `dir` at
// `step`: no steps left to run, or a test aid that would strike at a step
// the restart passes (known only now, before the outputs are taken over).
std::string continue_problem(const RunContext& run, const std::string& dir, int step) {
    const Options& c = run.options;
    if (step >= c.steps)
        return "--restart " + dir + ": the checkpoint is at step " + std::to_string(step) +
               ", and --steps " + std::to_string(c.steps) +
               (step > c.steps ? " asks for fewer steps than the checkpoint has"
                               : " asks for no more");
    return run.plan.aids.reach_problem(
        {step, c.steps, c.snapshot_every, world_size(), c.comm.is(CommMode::None)});
}

// Rank 0, after a restart from the checkpoint at `step`: the checkpoints
// of this run's own folder past that step belong to the continuation the
// restart goes back behind (its snapshots past the step are gone), so
// each is set aside whole, with a note saying so: --restart latest would
// otherwise take one, and leave a gap in the outputs. Only those of this
// run's settings (`settings`): another's are not the run's to move.
void set_aside_later(const Options& c, int step, const std::string& settings) {
    for (const StepFolder& f : step_folders(checkpoint_folder(c))) {
        if (f.step <= step || !f.verified || f.link || f.settings != settings) continue;
        const std::string moved = set_aside(
            f.path, "a restart went back to step " + std::to_string(step) +
                        ", so this checkpoint continues a run that no longer leads to the outputs");
        std::fprintf(stderr, "note: checkpoint %s is past step %d, where the run goes on: %s\n",
                     f.path.c_str(), step, moved.c_str());
    }
}

} // namespace

std::string restore_checkpoint(Simulation& sim, Outputs& outputs, const RunContext& run,
                               int& step) {
    const Options& c = run.options;
    const std::vector<std::string> found = candidates(c);
    const std::string named = c.restart == "latest" ? checkpoint_folder(c) : c.restart;
    if (found.empty())
        return "--restart " + c.restart + ": no checkpoint in " + named + hint(named);
    const Json mine = checkpoint_identity(run);
    // One that does not verify in the folder this run writes its own
    // checkpoints to is set aside: a later checkpoint of the same step
    // would otherwise replace it. Elsewhere it is left where it is.
    const bool own_folder = fs::path(named) == fs::path(checkpoint_folder(c)) && found.size() > 1;
    for (const std::string& dir : found) {
        const auto skip = [&](const std::string& why) { return pass_by(dir, why, own_folder); };
        Json doc = Json::parse(read_on_root(dir + "/checkpoint.json"), nullptr, false);
        if (const std::string why = doc_problem(dir, doc); !why.empty()) {
            if (std::string refused = skip(why); !refused.empty()) return refused;
            continue;
        }
        if (const std::string why = first_difference(doc["configuration"], mine); !why.empty())
            return "--restart " + dir + ": the checkpoint's " + why.substr(4) +
                   " (only timing options may change across a restart)";
        step = doc["step"].get<int>();
        // The files first: a damaged checkpoint is passed by, whatever its step.
        std::vector<double> levels[2];
        std::string damaged = read_levels(sim, c, dir, doc["files"], levels);
        if (damaged.empty() && mine["receivers"]["count"].get<std::size_t>() > 0 && step <= c.steps)
            damaged = outputs.load_traces(dir + "/" + kTraces, listed(doc["files"], kTraces), step);
        if (!damaged.empty()) {
            if (std::string refused = skip(damaged); !refused.empty()) return refused;
            continue;
        }
        if (std::string why = continue_problem(run, dir, step); !why.empty()) return why;
        // The outputs this checkpoint's run began (an older checkpoint names
        // only the run that wrote it).
        const Json lineage = doc.value("lineage", doc.value("run", Json()));
        const Provenance made = checkpoint_provenance(doc, dir, c);
        if (std::string why = outputs.resume_at(
                step, lineage.is_string() ? lineage.get<std::string>() : std::string(), made);
            !why.empty())
            return why;
        sim.restore(step, levels[0], levels[1]);
        if (world_rank() == 0) set_aside_later(c, step, settings_id(mine));
        if (world_rank() == 0)
            std::fprintf(stderr, "note: continuing from checkpoint %s at step %d%s\n", dir.c_str(),
                         step,
                         made.check == "failed"
                             ? "; its field failed a check, and so does this run's unless its "
                               "own --check passes"
                             : "");
        return {};
    }
    return "--restart " + c.restart + ": no checkpoint in " + named + " verifies";
}

} // namespace stencil
