// stencil-bench: single-GCD benchmark of every kernel variant x radius x
// precision x size, and of the Laplacian series' steps.
//
// A device-to-device copy of the same number of cells in the same precision
// runs first for each size; every stencil benchmark reports its effective
// bandwidth as a ratio to that copy's, measured in the same run. Timing is manual, with device
// events around each launch, after warm-up launches.
#include "bench_options.hpp"
#include "bench_register.hpp"
#include "bench_timing.hpp"
#include "bench_tuning.hpp"
#include "device.hpp"
#include "stencil_version.hpp"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <string>
#include <vector>

namespace {

// The version, back-end, device, precisions and launch shapes, in the report's context.
void add_context(const stencil::bench::Options& options) {
    const stencil::DeviceInfo info = stencil::device_info(0);
    benchmark::AddCustomContext("version", STENCIL_VERSION_STRING);
    benchmark::AddCustomContext("backend", stencil::backend_name());
    benchmark::AddCustomContext("device", info.name);
    benchmark::AddCustomContext("runtime", info.runtime);
    auto shape = [&](int radius) {
        const stencil::LaunchShape t =
            stencil::resolve_shape(options.shape, radius, stencil::Precision::FP32);
        return std::to_string(t.block_x) + "x" + std::to_string(t.block_y) + "x" +
               std::to_string(t.window) + " rows " + std::to_string(t.rows);
    };
    std::string precisions;
    for (const stencil::Precision p : options.precisions)
        precisions += std::string(precisions.empty() ? "" : ",") + stencil::precision_name(p);
    benchmark::AddCustomContext("precision", precisions);
    benchmark::AddCustomContext(
        "tuning",
        "block_x x block_y x window, rows per thread: " + shape(1) + " (R=1), " + shape(8) +
            " (R=8)" +
            (options.shape.window ? "" : "; wave: window chosen per box (its 'window' counter)"));
    if (options.tuning_mode != "off")
        benchmark::AddCustomContext("tuning_cache", options.tuning_mode == "auto"
                                                        ? stencil::default_tuning_cache_path()
                                                        : options.tuning_mode);
}

} // namespace

int main(int argc, char** argv) {
    if (stencil::bench::print_help_if_asked(argc, argv)) return 0;
    benchmark::Initialize(&argc, argv);
    const stencil::bench::Options options = stencil::bench::parse_options(argc, argv);
    if (STENCIL_HAS_GPU && stencil::device_count() == 0) {
        std::fprintf(stderr, "stencil-bench: no GPU visible to this %s build\n",
                     stencil::backend_name());
        return 1;
    }
    if (const auto missing = options.unavailable_variants(); !missing.empty()) {
        std::string names;
        for (const std::string& name : missing)
            names += (names.empty() ? "" : ", ") + name;
        std::fprintf(stderr, "stencil-bench: the %s back-end has no %s: skipped\n",
                     stencil::backend_name(), names.c_str());
    }
    add_context(options);
    if (const int done = stencil::bench::run_tuning(options); done >= 0) return done;
    stencil::bench::register_all(options);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    const std::vector<std::string>& wrong = stencil::bench::wrong_results();
    if (!wrong.empty()) {
        std::fprintf(stderr, "stencil-bench: %zu benchmark(s) computed a wrong result:\n",
                     wrong.size());
        for (const std::string& line : wrong)
            std::fprintf(stderr, "  %s\n", line.c_str());
        return 1;
    }
    return 0;
}
