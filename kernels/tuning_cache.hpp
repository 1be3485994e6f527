// The tuning cache: launch shapes measured on one device, kept in a
// human-readable JSON file and reused by later runs on the same device and
// the same kernels.
//
// A file made on another device, runtime or kernel revision is not used,
// with one line that says why; so is a corrupt or truncated one. Neither is
// ever a crash, and nothing from such a file is ever used. Saving merges
// with what the file holds by then and replaces it atomically (a temporary
// file in the same folder, then rename), so concurrent writers sharing a
// home directory leave a valid file.
#pragma once

#include "launch_shape.hpp"
#include "precision.hpp"

#include <array>
#include <string>
#include <vector>

namespace stencil {

// What a cache's measurements are valid for.
struct TuneIdentity {
    std::string device;   // the device's name
    std::string arch;     // gfx90a, gfx942, sm_90, ... ("host" on the HOST back-end)
    std::string runtime;  // the GPU runtime's version
    std::string revision; // a hash of the kernel sources (kernels_revision())
};

// This process's device 0 and these kernels.
TuneIdentity current_identity();
// A hash of the kernels' sources, made when the build was configured.
const char* kernels_revision();

// Where `--tuning auto` keeps its cache: $STENCIL_TUNING_CACHE, else
// $XDG_CACHE_HOME/stencil-miniapp/tuning-cache.json, else
// $HOME/.cache/stencil-miniapp/tuning-cache.json.
std::string default_tuning_cache_path();

// Why `value`, given to --tuning, would be read as a cache file the user
// did not mean ("OFF", "Auto", " off"), or "" for off, auto and other
// paths. The mini-app and stencil-bench both refuse on it.
std::string tuning_mode_problem(const std::string& value);

// One kernel over one box shape.
struct TuneKey {
    FusedKernel kernel = FusedKernel::Wave; // written by fused_kernel_name
    int radius = 0;
    Precision precision = Precision::FP32;
    std::array<int, 3> box{0, 0, 0}; // cells of the launched box
    bool operator==(const TuneKey& o) const {
        return kernel == o.kernel && radius == o.radius && precision == o.precision && box == o.box;
    }
};

struct TuneEntry {
    TuneKey key;
    LaunchShape shape;     // the measured best
    double ms = 0;         // its time per launch
    double default_ms = 0; // the built-in default's, in the same measurement
};

class TuningCache {
public:
    explicit TuningCache(TuneIdentity identity) : identity_(std::move(identity)) {}

    // The cache in `path` if it was made for `identity`. A missing file
    // gives an empty cache and no note; a file for another identity, or one
    // that cannot be read or parsed, gives an empty cache and sets `note`
    // to one line naming the file and the reason.
    static TuningCache load(const std::string& path, const TuneIdentity& identity,
                            std::string& note);

    const TuneEntry* find(const TuneKey& key) const;
    void put(const TuneEntry& entry); // replaces an entry with the same key
    const std::vector<TuneEntry>& entries() const { return entries_; }
    const TuneIdentity& identity() const { return identity_; }

    std::string to_json() const;
    // Merges with the file's current entries (this cache's win), then
    // writes atomically, making its folder if needed. Empty string on
    // success, else one line.
    std::string save(const std::string& path) const;

private:
    TuneIdentity identity_;
    std::vector<TuneEntry> entries_;
};

} // namespace stencil
