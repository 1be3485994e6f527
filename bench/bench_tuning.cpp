#include "bench_tuning.hpp"

#include <cstdio>

namespace stencil::bench {
namespace {

TuningCache load_cache(const std::string& path) {
    std::string note;
    TuningCache cache = TuningCache::load(path, current_identity(), note);
    if (!note.empty()) std::fprintf(stderr, "stencil-bench: %s\n", note.c_str());
    return cache;
}

} // namespace

BenchTuner::BenchTuner(const Options& o)
    : path_(o.tuning_mode == "auto" ? default_tuning_cache_path() : o.tuning_mode),
      budget_ms_(o.tune_seconds * 1e3), cache_(load_cache(path_)) {}

void BenchTuner::save() {
    if (const std::string why = cache_.save(path_); !why.empty())
        std::fprintf(stderr, "stencil-bench: %s\n", why.c_str());
}

} // namespace stencil::bench
