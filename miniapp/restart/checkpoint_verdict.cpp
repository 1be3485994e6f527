#include "restart/checkpoint_verdict.hpp"

#include "io/run_manifest.hpp"
#include "mpi_util.hpp"

#include <filesystem>
#include <vector>

namespace fs = std::filesystem;

namespace stencil {
namespace {

// Rank 0: where the record of the outputs the checkpoint in `dir` continues
// may be, each once.
std::vector<fs::path> record_folders(const Json& doc, const std::string& dir, const Options& c) {
    std::vector<fs::path> found;
    const auto add = [&found](const fs::path& folder) {
        std::error_code error;
        const fs::path canonical = fs::weakly_canonical(folder, error);
        if (error || folder.empty()) return;
        for (const fs::path& seen : found)
            if (seen == canonical) return;
        found.push_back(canonical);
    };
    if (const Json output = doc.value("output", Json()); output.is_string())
        add(output.get<std::string>());
    fs::path checkpoint = fs::path(dir).lexically_normal();
    if (!checkpoint.has_filename()) checkpoint = checkpoint.parent_path(); // "DIR/"
    add(checkpoint.parent_path().parent_path());
    add(c.output);
    return found;
}

// Rank 0: why the outputs `lineage` (the run that began them) were found
// to fail their checks, from the first record of theirs that says so; ""
// where none does. `run`: the run that wrote the checkpoint in `dir`.
std::string recorded_failure(const std::vector<fs::path>& folders, const std::string& lineage,
                             const std::string& run, const std::string& dir) {
    for (const fs::path& folder : folders) {
        RunManifest record;
        if (!RunManifest::read(folder.string(), record).empty() || record.lineage != lineage ||
            record.provenance.check != "failed")
            continue;
        // A later run of the same outputs may have continued this
        // checkpoint's field, or another's: taken as failed either way.
        const std::string who = record.run == run ? "the run that wrote checkpoint "
                                                  : "a later run of the outputs of checkpoint ";
        return who + dir + " failed its checks at step " + std::to_string(record.step);
    }
    return {};
}

} // namespace

Provenance checkpoint_provenance(const Json& doc, const std::string& dir, const Options& c) {
    Provenance made;
    if (!Provenance::read(doc, made))
        made.add_reason("checkpoint " + dir +
                        " does not say what made its field (an older version's)");
    std::string failed;
    if (world_rank() == 0 && made.check != "failed") {
        const Json lineage = doc.value("lineage", doc.value("run", Json()));
        const Json run = doc.value("run", Json());
        if (lineage.is_string() && run.is_string())
            failed = recorded_failure(record_folders(doc, dir, c), lineage.get<std::string>(),
                                      run.get<std::string>(), dir);
    }
    failed = broadcast_text(MPI_COMM_WORLD, failed);
    if (!failed.empty()) made.set_check(false, failed);
    return made;
}

std::string record_folder_for_checkpoints(const Options& c) {
    std::error_code error;
    const fs::path absolute = fs::absolute(c.output, error);
    return error ? c.output : absolute.lexically_normal().string();
}

} // namespace stencil
