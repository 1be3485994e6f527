// stencil-bench's use of the self-tuner (--tuning, --tune-only): the shape
// of a fused Laplacian or wave benchmark from the tuning cache, or tuned now
// and saved there.
#pragma once

#include "bench_options.hpp"
#include "tune_on_device.hpp"

#include <string>

namespace stencil::bench {

class BenchTuner {
public:
    // Loads the cache that --tuning names (auto: the default path); prints
    // its one-line note, if any, on stderr.
    explicit BenchTuner(const Options& o);

    // The shape for the kernel over `box`; the cache is saved when it grew.
    template <int R, class T>
    TunedShape shape(FusedKernel kernel, const Layout& layout, const Box& box) {
        const TunedShape s = cached_or_tuned<R, T>(cache_, kernel, layout, box, budget_ms_);
        if (s.source == ShapeSource::TunedNow) save();
        return s;
    }
    const std::string& path() const { return path_; }

private:
    void save();
    std::string path_;
    double budget_ms_;
    TuningCache cache_;
};

// The run's tuner: null without --tuning (run_tuning makes it).
BenchTuner* bench_tuner();

// --tuning: makes the tuner; with --tune-only, also the tuned shape of every
// fused Laplacian and wave the options select, into the cache, one line
// each, and returns 0 (main's exit status). -1: go on to the benchmarks.
int run_tuning(const Options& o);

} // namespace stencil::bench
