#include "bench_timing.hpp"

#include <map>

namespace stencil::bench {
namespace {

std::map<std::string, double> g_copy_gbs; // copy GB/s per "precision/size" label, this run
std::vector<std::string> g_wrong;         // benchmarks whose output failed its check

} // namespace

void register_timed(const std::string& name, std::function<void(benchmark::State&)> run) {
    benchmark::RegisterBenchmark(name.c_str(), std::move(run))
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
}

void record_copy_gbs(const std::string& copy_key, double gbs) {
    g_copy_gbs[copy_key] = gbs;
}

void report(benchmark::State& state, const std::string& copy_key, double cells, double bytes,
            double seconds) {
    const double gbs = seconds > 0 ? bytes / seconds * 1e-9 : 0.0;
    state.counters["GB/s"] = gbs;
    state.counters["Gcell/s"] = seconds > 0 ? cells / seconds * 1e-9 : 0.0;
    const auto copy = g_copy_gbs.find(copy_key);
    if (copy != g_copy_gbs.end() && copy->second > 0)
        state.counters["copy_ratio"] = gbs / copy->second;
}

void record_wrong(benchmark::State& st, const std::string& name, const std::string& why) {
    st.SkipWithError(("wrong result: " + why).c_str());
    g_wrong.push_back(name + ": " + why);
}

const std::vector<std::string>& wrong_results() {
    return g_wrong;
}

} // namespace stencil::bench
