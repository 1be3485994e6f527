// What every timed benchmark of stencil-bench shares: timing with device
// events after warm-up launches, the counters it reports (effective bandwidth
// as a ratio to the same run's copy of the same size and precision), the
// check of its output against the host reference, and the run's list of
// benchmarks that computed a wrong result.
#pragma once

#include "bench_check.hpp"
#include "bench_fields.hpp"
#include "device.hpp"
#include "stencil.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

namespace stencil::bench {

// Registers a benchmark timed by hand (time_launches), in milliseconds.
void register_timed(const std::string& name, std::function<void(benchmark::State&)> run);

// The copy's GB/s for `copy_key` ("precision/size"), for the ratios.
void record_copy_gbs(const std::string& copy_key, double gbs);

// GB/s, Gcell/s and the ratio to the copy of `copy_key`, if it ran.
void report(benchmark::State& state, const std::string& copy_key, double cells, double bytes,
            double seconds);

// Marks `st` as an error and adds "name: why" to the run's wrong results.
void record_wrong(benchmark::State& st, const std::string& name, const std::string& why);

// "name: why" for every benchmark whose output failed its check, this run.
const std::vector<std::string>& wrong_results();

template <class T>
std::string precision_label() {
    return precision_name(precision_of<T>());
}

// Launches of `launch` one timed iteration holds: as many as last at
// least kBatchSeconds, from one launch timed alone (at least one). A
// launch timed alone also times the host's launch latency, a few
// microseconds that a step's back-to-back launches hide: a 2 MB copy
// measured 8.8 us, 238 GB/s, on an H100 (docs/performance-history.md,
// "Slabs for small boxes"). Launched back to back, as in a step, a small
// kernel's time is its own.
inline constexpr double kBatchSeconds = 100e-6;

// Times `launch` with events; returns the mean seconds per launch.
template <class Launch>
double time_launches(benchmark::State& state, Stream& stream, int warmup, Launch&& launch) {
    for (int w = 0; w < warmup; ++w)
        launch();
    stream.synchronize();
    Event start, stop;
    start.record(stream);
    launch();
    stop.record(stream);
    stop.synchronize();
    const double alone = elapsed_ms(start, stop) * 1e-3;
    const int batch = alone >= kBatchSeconds ? 1 : int(kBatchSeconds / std::max(alone, 1e-7)) + 1;
    double total = 0;
    for (auto _ : state) {
        start.record(stream);
        for (int n = 0; n < batch; ++n)
            launch();
        stop.record(stream);
        stop.synchronize();
        const double seconds = elapsed_ms(start, stop) * 1e-3 / batch;
        state.SetIterationTime(seconds);
        total += seconds;
    }
    state.counters["batch"] = batch;
    return state.iterations() ? total / double(state.iterations()) : 0.0;
}

// After timing: the output against the host reference (bench_check.hpp).
// A mismatch marks the benchmark as an error and fails the whole run.
template <int R, class T>
void check_output(benchmark::State& st, const std::string& name, Arrays<T>& x, const Box& box,
                  const Coefficients<R, T>& c, const Expected& expected, bool plant_error) {
    DeviceArray<T>& result = expected.axes.empty() ? x.prev : x.out;
    if (plant_error) x.plant_wrong_cell(result, box);
    const HostPlanes p = x.planes(x.p, {box}, R), out = x.planes(result, {box}, 0);
    const std::string why = check_against_host(x.layout, box, c, p, out, expected);
    if (!why.empty()) record_wrong(st, name, why);
}

} // namespace stencil::bench
