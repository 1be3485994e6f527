#include "bench_tuning.hpp"

#include "stencil.hpp"

#include <cstdio>
#include <memory>

namespace stencil::bench {
namespace {

std::unique_ptr<BenchTuner> g_tuner; // with --tuning

TuningCache load_cache(const std::string& path) {
    std::string note;
    TuningCache cache = TuningCache::load(path, current_identity(), note);
    if (!note.empty()) std::fprintf(stderr, "stencil-bench: %s\n", note.c_str());
    return cache;
}

// --tune-only: the tuned shape of every fused Laplacian and wave the
// options select, into the cache, one line each.
void tune_all(const Options& o) {
    for (const Size& s : o.sizes)
        for (const Precision precision : o.precisions)
            dispatch_precision(precision, [&](auto zero) {
                using T = decltype(zero);
                for (int R : o.radii)
                    dispatch_radius(R, [&](auto rc) {
                        constexpr int RR = decltype(rc)::value;
                        const Layout layout(s.nx, s.ny, s.nz, RR);
                        for (const FusedKernel kernel :
                             {FusedKernel::Laplacian, FusedKernel::Wave}) {
                            const char* name = fused_kernel_name(kernel);
                            if (!o.wants(name)) continue;
                            const TunedShape c =
                                g_tuner->shape<RR, T>(kernel, layout, layout.interior());
                            std::printf("%s R%d %s %s: %s%s%s\n", name, RR,
                                        precision_name(precision), s.label().c_str(),
                                        (c.source == ShapeSource::BuiltIn
                                             ? "the built-in default"
                                             : shape_source_name(c.source)),
                                        c.summary.empty() ? "" : ": ", c.summary.c_str());
                        }
                    });
            });
}

} // namespace

BenchTuner* bench_tuner() {
    return g_tuner.get();
}

int run_tuning(const Options& o) {
    if (o.tuning_mode == "off") return -1;
    g_tuner = std::make_unique<BenchTuner>(o);
    if (!o.tune_only) return -1;
    std::printf("tuning cache: %s\n", g_tuner->path().c_str());
    tune_all(o);
    return 0;
}

BenchTuner::BenchTuner(const Options& o)
    : path_(o.tuning_mode == "auto" ? default_tuning_cache_path() : o.tuning_mode),
      budget_ms_(o.tune_seconds * 1e3), cache_(load_cache(path_)) {}

void BenchTuner::save() {
    if (const std::string why = cache_.save(path_); !why.empty())
        std::fprintf(stderr, "stencil-bench: %s\n", why.c_str());
}

} // namespace stencil::bench
