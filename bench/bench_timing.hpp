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

// Times `launch` with events; returns the mean seconds per launch.
template <class Launch>
double time_launches(benchmark::State& state, Stream& stream, int warmup, Launch&& launch) {
    for (int w = 0; w < warmup; ++w)
        launch();
    stream.synchronize();
    Event start, stop;
    double total = 0;
    for (auto _ : state) {
        start.record(stream);
        launch();
        stop.record(stream);
        stop.synchronize();
        const double seconds = elapsed_ms(start, stop) * 1e-3;
        state.SetIterationTime(seconds);
        total += seconds;
    }
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
