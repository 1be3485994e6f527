#include "restart/checkpoint_identity.hpp"

#include "io/crc32.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

namespace fs = std::filesystem;

namespace stencil {
namespace {

// The receivers a run records (the file's and the line's), by their count
// and the CRC-32 of their cells: the list itself may be long.
Json receivers_identity(const RunContext& run) {
    const Options& c = run.options;
    const RunPlan& plan = run.plan;
    const Physics& p = run.physics;
    std::vector<int> cells;
    for (const auto& r : plan.receivers)
        cells.insert(cells.end(), r.begin(), r.end());
    if (c.line_axis == 2)
        for (int x = 0; x < plan.grid[0]; ++x)
            cells.insert(cells.end(), {x, p.source[1], c.line_index});
    return {{"count", cells.size() / 3},
            {"crc32", crc32_hex(crc32_of(cells.data(), cells.size() * sizeof(int)))}};
}

std::uint32_t text_crc(const Json& doc) {
    const std::string text = doc.dump();
    return crc32_of(text.data(), text.size());
}

// Settings added after checkpoints were first written, each with the value
// it had before: an identity holds one only where it differs, so that a
// checkpoint written before it was known keeps its settings' CRC-32.
constexpr std::pair<const char*, const char*> kLaterSettings[] = {{"snapshot_format", "raw"}};

bool is_later_setting(const std::string& key) {
    for (const auto& [name, before] : kLaterSettings)
        if (key == name) return true;
    return false;
}

} // namespace

Json checkpoint_identity(const RunContext& run) {
    const Options& c = run.options;
    const RunPlan& plan = run.plan;
    const Physics& p = run.physics;
    Json identity = {
        {"grid", plan.grid},
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
        {"slice", c.slice_axis < 0
                      ? std::string("none")
                      : std::string(1, "xyz"[c.slice_axis]) + "=" + std::to_string(c.slice_index)},
        {"receivers", receivers_identity(run)}};
    // Snapshots go on in the format they began in: a folder of both could
    // not end as an uninterrupted run's.
    if (c.output_format == OutputFormat::Hdf5) identity["snapshot_format"] = "hdf5";
    return identity;
}

std::string settings_id(const Json& identity) {
    return crc32_hex(text_crc(identity));
}

std::string first_difference(const Json& theirs, const Json& mine) {
    // dt follows from the model's fastest speed and the spacing: a changed
    // model or spacing is named, not the time step it changed.
    std::string dt;
    for (const auto& [key, value] : mine.items()) {
        const Json other = theirs.is_object() ? theirs.value(key, Json()) : Json();
        if (other == value || is_later_setting(key)) continue;
        const std::string line =
            "its " + key + " is " + other.dump() + ", this run's is " + value.dump();
        if (key != "dt_s") return line;
        dt = line;
    }
    for (const auto& [key, before] : kLaterSettings) {
        const Json other = theirs.is_object() ? theirs.value(key, Json(before)) : Json(before);
        const Json value = mine.value(key, Json(before));
        if (other != value)
            return "its " + std::string(key) + " is " + other.dump() + ", this run's is " +
                   value.dump();
    }
    return dt;
}

std::string step_name(int step) {
    char name[32];
    std::snprintf(name, sizeof name, "step_%06d", step);
    return name;
}

bool parse_step_name(const std::string& name, int& step, bool& partial) {
    // step_NNNNNN: six digits, more past step 999,999 (step_name's %06d).
    const std::string suffix = ".partial";
    const bool marked = name.size() > suffix.size() &&
                        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
    const std::size_t end = name.size() - (marked ? suffix.size() : 0);
    partial = end != name.size();
    if (name.rfind("step_", 0) != 0 || end < 11 || end > 14) return false;
    long value = 0;
    for (std::size_t n = 5; n < end; ++n) {
        if (name[n] < '0' || name[n] > '9') return false;
        value = value * 10 + (name[n] - '0');
    }
    if (value > std::numeric_limits<int>::max()) return false;
    step = int(value);
    return true;
}

void seal(Json& doc) {
    doc.erase("crc32");
    doc["crc32"] = crc32_hex(text_crc(doc));
}

std::string unseal(Json& doc) {
    std::uint32_t said = 0;
    const Json crc = doc.is_object() ? doc.value("crc32", Json()) : Json();
    if (!crc.is_string() || !parse_crc32_hex(crc.get<std::string>(), said))
        return "checkpoint.json carries no CRC-32 of its own (an older version's?)";
    doc.erase("crc32");
    const std::uint32_t found = text_crc(doc);
    if (found != said)
        return "checkpoint.json: CRC-32 " + crc32_hex(found) + ", it says " + crc32_hex(said) +
               " (changed by hand, or damaged)";
    return {};
}

StepFolder read_step_folder(const std::string& path) {
    StepFolder f;
    f.path = path;
    f.name = fs::path(path).filename().string();
    std::error_code ignored;
    f.folder = fs::is_directory(path, ignored);
    f.link = fs::is_symlink(fs::symlink_status(path, ignored));
    if (!parse_step_name(f.name, f.step, f.partial) || !f.folder) return f;
    std::ifstream in(path + "/checkpoint.json");
    std::ostringstream text;
    text << in.rdbuf();
    const Json doc = Json::parse(text.str(), nullptr, false);
    if (!doc.is_object() || doc.value("program", Json()) != kCheckpointProgram) {
        // checkpoint.json is written first, so a folder of this name with
        // both levels and none was a checkpoint until it was deleted.
        const bool levels = fs::is_regular_file(path + "/" + kLevels[0], ignored);
        f.damaged = levels && (fs::exists(path + "/checkpoint.json", ignored) ||
                               fs::is_regular_file(path + "/" + kLevels[1], ignored));
        return f;
    }
    f.checkpoint = true;
    if (const Json s = doc.value("settings", Json()); s.is_string()) f.settings = s;
    if (const Json r = doc.value("run", Json()); r.is_string()) f.run = r;
    f.configuration = doc.value("configuration", Json::object());
    if (const Json files = doc.value("files", Json()); files.is_object())
        for (const auto& entry : files.items())
            f.files.push_back(entry.key());
    Json sealed = doc;
    f.verified = !f.partial && unseal(sealed).empty() && doc.value("step", Json()) == f.step;
    return f;
}

std::vector<StepFolder> step_folders(const std::string& folder) {
    std::vector<StepFolder> found;
    std::error_code ignored;
    for (const auto& entry : fs::directory_iterator(folder, ignored)) {
        int step = 0;
        bool partial = false;
        if (parse_step_name(entry.path().filename().string(), step, partial))
            found.push_back(read_step_folder(entry.path().string()));
    }
    std::sort(found.begin(), found.end(), [](const StepFolder& a, const StepFolder& b) {
        return a.step != b.step ? a.step < b.step : a.partial < b.partial;
    });
    return found;
}

} // namespace stencil
