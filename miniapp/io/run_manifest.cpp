#include "io/run_manifest.hpp"

#include "io/checked_io.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace stencil {
namespace {

constexpr const char* kProgram = "stencil-miniapp outputs";

} // namespace

std::string RunManifest::read(const std::string& folder, RunManifest& out) {
    const std::string path = folder + "/" + kFileName;
    std::ifstream in(path);
    if (!in) return "none";
    std::ostringstream text;
    text << in.rdbuf();
    const Json doc = Json::parse(text.str(), nullptr, false);
    if (!doc.is_object() || doc.value("program", Json()) != kProgram)
        return path + " is not this program's record of its outputs (damaged?)";
    try {
        out.lineage = doc.at("lineage").get<std::string>();
        out.run = doc.at("run").get<std::string>();
        out.steps = doc.at("steps").get<int>();
        out.state = doc.at("state").get<std::string>();
        out.step = doc.at("step").get<int>();
        out.stop_checkpoint.reset();
        if (const Json stop = doc.value("stop_checkpoint", Json(false)); stop.is_string())
            out.stop_checkpoint = stop.get<std::string>();
        else if (stop.is_null())
            out.stop_checkpoint = "";
        // An older version's record has none; one that is not this
        // program's would pass a wrong field for the one-domain answer.
        out.provenance = Provenance{};
        if (doc.contains("provenance") && !Provenance::read(doc, out.provenance))
            return path + ": its provenance is not this program's (damaged, or changed by hand?)";
        out.files.clear();
        for (const auto& [name, entry] : doc.at("files").items())
            out.files[name] = entry.at("end").get<bool>();
    } catch (const Json::exception&) {
        return path + " lacks a field of this program's record of its outputs (damaged?)";
    }
    return {};
}

std::string RunManifest::in_the_way(const std::string& folder) {
    const std::string path = folder + "/" + kFileName;
    std::error_code error;
    const auto status = std::filesystem::symlink_status(path, error);
    if (!std::filesystem::exists(status)) return {};
    if (!std::filesystem::is_regular_file(status))
        return path + " is not this program's record of its outputs (a link or a folder); move it";
    RunManifest ignored;
    if (const std::string why = read(folder, ignored); !why.empty())
        return why + "; move it, or choose another folder";
    return {};
}

std::string RunManifest::write(const std::string& folder) const {
    Json listed = Json::object();
    for (const auto& [name, end] : files)
        listed[name] = {{"end", end}};
    Json doc = {{"program", kProgram}, {"lineage", lineage}, {"run", run},
                {"steps", steps},      {"state", state},     {"step", step}};
    if (stop_checkpoint)
        doc["stop_checkpoint"] = stop_checkpoint->empty() ? Json() : Json(*stop_checkpoint);
    doc["provenance"] = provenance.json();
    doc["files"] = listed;
    return write_file_completely(folder + "/" + kFileName, json_text(doc));
}

void RunManifest::add(const std::string& name, bool end) {
    const auto found = files.find(name);
    files[name] = end && (found == files.end() || found->second);
}

} // namespace stencil
