// stencil-bench's use of the self-tuner (--tuning, --tune-only): the shape
// of a fused Laplacian or wave benchmark from the tuning cache, or tuned now
// and saved there.
#pragma once

#include "bench_options.hpp"
#include "gpu_runtime.hpp"
#include "tune_on_device.hpp"
#include "tuning_cache.hpp"

#include <string>

namespace stencil::bench {

struct ShapeChoice {
    Tuning shape;
    std::string source;  // "cache" or "tuned now"
    std::string summary; // the search's line when tuned now
};

class BenchTuner {
public:
    // Loads the cache that --tuning names (auto: the default path); prints
    // its one-line note, if any, on stderr.
    explicit BenchTuner(const Options& o);

    template <int R, class T>
    ShapeChoice shape(bool wave, const Layout& layout, const Box& box) {
        const TuneKey key{
            wave ? "wave" : "fused_xyz", R, precision_of<T>(), {box.nx(), box.ny(), box.nz()}};
        if (!STENCIL_HAS_GPU) // nothing to tune, and nothing worth keeping
            return {resolve_tuning(Tuning{}, R, precision_of<T>()), "the built-in default",
                    "the HOST back-end has no launch shape"};
        if (const TuneEntry* e = cache_.find(key)) return {e->shape, "cache", ""};
        const TuneResult r = tune_on_device<R, T>(wave, layout, box, budget_ms_);
        cache_.put({key, r.best, r.best_ms, r.start_ms});
        save();
        return {r.best, "tuned now", r.summary()};
    }
    const std::string& path() const { return path_; }

private:
    void save();
    std::string path_;
    double budget_ms_;
    TuningCache cache_;
};

} // namespace stencil::bench
