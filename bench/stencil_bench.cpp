// stencil-bench: single-GCD benchmark of every kernel variant x radius x size.
//
// A device-to-device copy of the same number of cells runs first for each
// size; every stencil benchmark reports its effective bandwidth as a ratio
// to that copy's, measured in the same run. Timing is manual, with device
// events around each launch, after warm-up launches.
#include "bench_options.hpp"
#include "device.hpp"
#include "memory.hpp"
#include "stencil.hpp"

#include <benchmark/benchmark.h>

#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace stencil::bench {
namespace {

// The fields of one (size, R): input p, a second input, the velocity term,
// and an output. Kept across Google Benchmark's repeated calls of one
// benchmark and replaced when the next benchmark needs another shape.
struct Arrays {
    Layout layout;
    DeviceArray<float> p, prev, vel, out;
    explicit Arrays(const Layout& l)
        : layout(l), p(l.allocation()), prev(l.allocation()), vel(l.allocation()),
          out(l.allocation()) {
        // Random data, not zeros: zeros can run faster than real data.
        std::vector<float> host(l.allocation());
        std::mt19937 rng(42);
        std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
        for (float& x : host)
            x = dist(rng);
        copy_to_device(p, host.data());
        copy_to_device(prev, host.data());
        copy_to_device(out, host.data());
        for (float& x : host)
            x = 0.05f + 0.05f * (x + 1.0f); // stable dt^2 c^2 / h^2 values
        copy_to_device(vel, host.data());
    }
    FieldView<float> view(DeviceArray<float>& x) { return view_of(x.data(), layout); }
};

Arrays& arrays_for(const Size& s, int radius) {
    static std::unique_ptr<Arrays> current;
    if (!current || current->layout.nx != s.nx || current->layout.ny != s.ny ||
        current->layout.nz != s.nz || current->layout.radius != radius) {
        current.reset(); // free first: two 512^3 sets need not fit at once
        current = std::make_unique<Arrays>(Layout(s.nx, s.ny, s.nz, radius));
    }
    return *current;
}

std::map<std::string, double> g_copy_gbs; // copy GB/s per size label, this run

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

void report(benchmark::State& state, const Size& s, double bytes, double seconds) {
    const double cells = double(s.nx) * s.ny * s.nz;
    const double gbs = seconds > 0 ? bytes / seconds * 1e-9 : 0.0;
    state.counters["GB/s"] = gbs;
    state.counters["Gcell/s"] = seconds > 0 ? cells / seconds * 1e-9 : 0.0;
    const auto copy = g_copy_gbs.find(s.label());
    if (copy != g_copy_gbs.end() && copy->second > 0)
        state.counters["copy_ratio"] = gbs / copy->second;
}

// Minimal bytes (the articles' formula): every input cell read once, halo
// planes included for each differentiated direction, every output written once.
double derivative_bytes(const Size& s, int R, const std::string& axes) {
    const double nx = s.nx, ny = s.ny, nz = s.nz;
    double read = nx * ny * nz;
    for (char a : axes)
        read += 2.0 * R * (a == 'x' ? ny * nz : a == 'y' ? nx * nz : nx * ny);
    return (read + nx * ny * nz) * sizeof(float);
}

// The wave update reads p (with its halo), p_prev and the velocity term, and writes p_next.
double wave_bytes(const Size& s, int R) {
    return derivative_bytes(s, R, "xyz") + 2.0 * s.nx * s.ny * s.nz * sizeof(float);
}

// A device-to-device copy of the size's cells: it records its GB/s for the ratios.
void register_copy(const Size& s, const Options& o) {
    auto run = [s, o](benchmark::State& st) {
        Arrays& x = arrays_for(s, 1);
        Stream stream;
        const std::size_t n = std::size_t(s.nx) * s.ny * s.nz;
        const double t = time_launches(st, stream, o.warmup,
                                       [&] { launch_copy(x.p.data(), x.out.data(), n, stream); });
        const double bytes = 2.0 * n * sizeof(float);
        if (t > 0) g_copy_gbs[s.label()] = bytes / t * 1e-9;
        report(st, s, bytes, t);
    };
    benchmark::RegisterBenchmark(("copy/" + s.label()).c_str(), run)
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
}

void register_all(const Options& o) {
    for (const Size& s : o.sizes) {
        // The yardstick runs first for every size, whatever --variants says:
        // every other benchmark reports its ratio to it.
        register_copy(s, o);
        for (int R : o.radii) {
            const std::string suffix = "/R" + std::to_string(R) + "/" + s.label();
            // launch(arrays, box, stream, shape): `shape` is shape_of(arrays, box),
            // resolved once per benchmark as the mini-app does, not per launch;
            // with `report_window`, its z window is recorded as a counter.
            auto add = [&](const std::string& name, double bytes, auto shape_of, bool report_window,
                           auto launch) {
                if (!o.wants(name)) return;
                benchmark::RegisterBenchmark((name + suffix).c_str(),
                                             [=](benchmark::State& st) {
                                                 Arrays& x = arrays_for(s, R);
                                                 Stream stream;
                                                 const Box box = x.layout.interior();
                                                 const Tuning shape = shape_of(x, box);
                                                 const double t =
                                                     time_launches(st, stream, o.warmup, [&] {
                                                         launch(x, box, stream, shape);
                                                     });
                                                 report(st, s, bytes, t);
                                                 if (report_window)
                                                     st.counters["window"] = shape.window;
                                             })
                    ->UseManualTime()
                    ->Unit(benchmark::kMillisecond);
            };
            dispatch_radius(R, [&](auto rc) {
                constexpr int RR = decltype(rc)::value;
                const auto c = make_coefficients<RR, float>(1, 1, 1);
                const Tuning tuning = o.tuning;
                const auto as_given = [tuning](const Arrays&, const Box&) { return tuning; };
                for (Variant v : available_variants())
                    add(variant_name(v), derivative_bytes(s, RR, variant_axes(v)), as_given, false,
                        [=](Arrays& x, const Box& box, Stream& stream, const Tuning& shape) {
                            launch_derivative<RR>(v, x.view(x.p), x.view(x.out), box, c, stream,
                                                  shape);
                        });
                // The articles' starting point for the Laplacian: three baseline passes.
                // Each pass writes its own result (no accumulation), so this is a
                // lower bound on the three-pass cost and flatters the baseline.
                add("baseline_3pass", derivative_bytes(s, RR, "xyz"), as_given, false,
                    [=](Arrays& x, const Box& box, Stream& stream, const Tuning& shape) {
                        for (Variant v :
                             {Variant::BaselineX, Variant::BaselineY, Variant::BaselineZ})
                            launch_derivative<RR>(v, x.view(x.p), x.view(x.out), box, c, stream,
                                                  shape);
                    });
                add(
                    "wave", wave_bytes(s, RR),
                    [tuning](const Arrays& x, const Box& box) {
                        return wave_tuning<RR>(tuning, x.layout, box);
                    },
                    true,
                    [=](Arrays& x, const Box& box, Stream& stream, const Tuning& shape) {
                        launch_wave_step<RR>(x.view(x.p), x.view(x.prev), x.view(x.vel), box, c,
                                             Sponge{}, stream, shape);
                    });
            });
        }
    }
}

} // namespace
} // namespace stencil::bench

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    const stencil::bench::Options options = stencil::bench::parse_options(argc, argv);
    if (STENCIL_HAS_GPU && stencil::device_count() == 0) {
        std::fprintf(stderr, "stencil-bench: no GPU visible to this %s build\n",
                     stencil::backend_name());
        return 1;
    }
    const stencil::DeviceInfo info = stencil::device_info(0);
    benchmark::AddCustomContext("backend", stencil::backend_name());
    benchmark::AddCustomContext("device", info.name);
    benchmark::AddCustomContext("runtime", info.runtime);
    auto shape = [](const stencil::Tuning& t) {
        return std::to_string(t.block_x) + "x" + std::to_string(t.block_y) + "x" +
               std::to_string(t.window);
    };
    benchmark::AddCustomContext(
        "tuning",
        "block_x x block_y x window: " + shape(stencil::resolve_tuning(options.tuning, 1)) +
            " (R<=5), " + shape(stencil::resolve_tuning(options.tuning, 8)) + " (R>=6)" +
            (options.tuning.window ? "" : "; wave: window chosen per box (its 'window' counter)"));
    stencil::bench::register_all(options);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
