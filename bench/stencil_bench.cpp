// stencil-bench: single-GCD benchmark of every kernel variant x radius x
// precision x size, and of the Laplacian series' steps.
//
// A device-to-device copy of the same number of cells in the same precision
// runs first for each size; every stencil benchmark reports its effective
// bandwidth as a ratio to that copy's, measured in the same run. Timing is manual, with device
// events around each launch, after warm-up launches.
#include "bench_check.hpp"
#include "bench_fields.hpp"
#include "bench_options.hpp"
#include "bench_tuning.hpp"
#include "device.hpp"
#include "launch_table.hpp"
#include "memory.hpp"
#include "series.hpp"
#include "stencil.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace stencil::bench {
namespace {

std::map<std::string, double> g_copy_gbs; // copy GB/s per "precision/size" label, this run
std::unique_ptr<BenchTuner> g_tuner;      // with --tuning
std::vector<std::string> g_wrong;         // benchmarks whose output failed its check

// After timing: the output against the host reference (bench_check.hpp).
// A mismatch marks the benchmark as an error and fails the whole run.
template <int R, class T>
void check_output(benchmark::State& st, const std::string& name, Arrays<T>& x, const Box& box,
                  const Coefficients<R, T>& c, const Expected& expected, bool plant_error) {
    const std::vector<double> p = x.host(x.p);
    std::vector<double> out = x.host(expected.axes.empty() ? x.prev : x.out);
    if (plant_error) out[x.layout.front + x.layout.index(box.x0, box.y0, box.z0)] += 1.0;
    const std::string why = check_against_host(x.layout, box, c, p, out, expected);
    if (why.empty()) return;
    st.SkipWithError(("wrong result: " + why).c_str());
    g_wrong.push_back(name + ": " + why);
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

void report(benchmark::State& state, const std::string& copy_key, double cells, double bytes,
            double seconds) {
    const double gbs = seconds > 0 ? bytes / seconds * 1e-9 : 0.0;
    state.counters["GB/s"] = gbs;
    state.counters["Gcell/s"] = seconds > 0 ? cells / seconds * 1e-9 : 0.0;
    const auto copy = g_copy_gbs.find(copy_key);
    if (copy != g_copy_gbs.end() && copy->second > 0)
        state.counters["copy_ratio"] = gbs / copy->second;
}

template <class T>
std::string precision_label() {
    return precision_name(precision_of<T>());
}

void register_timed(const std::string& name, std::function<void(benchmark::State&)> run) {
    benchmark::RegisterBenchmark(name.c_str(), std::move(run))
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
}

// A device-to-device copy of the size's cells in precision T: it records
// its GB/s for the ratios of every benchmark of that precision and size.
template <class T>
void register_copy(const Size& s, const Options& o) {
    const std::string key = precision_label<T>() + "/" + s.label();
    register_timed("copy/" + key, [s, o, key](benchmark::State& st) {
        Arrays<T>& x = arrays_for<T>(Layout(s.nx, s.ny, s.nz, 1));
        Stream stream;
        const std::size_t n = std::size_t(s.nx) * s.ny * s.nz;
        const double t = time_launches(st, stream, o.warmup,
                                       [&] { launch_copy(x.p.data(), x.out.data(), n, stream); });
        const double bytes = 2.0 * n * sizeof(T);
        if (t > 0) g_copy_gbs[key] = bytes / t * 1e-9;
        report(st, key, double(n), bytes, t);
        // The yardstick must copy too: every element, bit for bit.
        std::vector<double> in = x.host(x.p), out = x.host(x.out);
        if (o.plant_wrong_result) out[0] += 1.0;
        if (!std::equal(in.begin(), in.begin() + long(n), out.begin())) {
            st.SkipWithError("wrong result: the copy differs from its source");
            g_wrong.push_back("copy/" + key + ": the copy differs from its source");
        }
    });
}

// The Laplacian series' steps: on a GPU back-end, at R = 1, with the grid
// of N^3 points holding (N-2)^3 computed ones.
template <class T>
void register_series(const Size& s, const Options& o) {
#if STENCIL_HAS_GPU
    if (!o.wants("series") || s.nx < 3 || s.ny < 3 || s.nz < 3) return;
    const std::string key = precision_label<T>() + "/" + s.label();
    const auto c = make_coefficients<1, T>(1, 1, 1);
    for (SeriesStep step : series_steps())
        for (int m : series_cells_per_thread(step)) {
            const std::string name = std::string("series_") + series_step_name(step) +
                                     "/m=" + std::to_string(m) + "/" + key;
            register_timed(name, [=](benchmark::State& st) {
                Arrays<T>& x = arrays_for<T>(Layout(s.nx - 2, s.ny - 2, s.nz - 2, 1));
                Stream stream;
                const Box box = x.layout.interior();
                const double t = time_launches(st, stream, o.warmup, [&] {
                    launch_series_laplacian<T>(step, m, x.view(x.p), x.view(x.out), box, c, stream);
                });
                report(st, key, double(box.cells()), series_bytes(s, sizeof(T)), t);
                check_output<1, T>(st, name, x, box, c, Expected{"xyz"}, o.plant_wrong_result);
            });
        }
#else
    (void)s, (void)o;
#endif
}

// Every variant at radius R in precision T over the size's interior.
template <int R, class T>
void register_radius(const Size& s, const Options& o) {
    const std::string key = precision_label<T>() + "/" + s.label();
    const std::string suffix = "/R" + std::to_string(R) + "/" + key;
    const auto c = make_coefficients<R, T>(1, 1, 1);
    const double cells = double(s.nx) * s.ny * s.nz;
    // launch(arrays, box, stream, shape): `shape` is shape_of(arrays, box),
    // resolved once per benchmark as the mini-app does, not per launch; its
    // z window and rows are recorded as counters. A requested shape the
    // kernel is not built for is skipped with the reason. `kernel` bounds the
    // rows (the kernels other than the fused two ignore them); `axes` names
    // the derivatives the output holds, empty for the wave update.
    auto add = [&](const std::string& name, const std::string& axes, double bytes,
                   FusedKernel kernel, auto shape_of, auto launch) {
        if (!o.wants(name)) return;
        // One benchmark: `requested` completed by shape_of, skipped with the
        // reason when the kernel is not built for it.
        auto run_one = [=](benchmark::State& st, const LaunchShape& requested, auto shape_for,
                           auto launch_with) {
            const std::string why = fits(resolve_shape(requested, R, precision_of<T>(), kernel), R,
                                         precision_of<T>(), kernel);
            if (!why.empty()) {
                st.SkipWithError(why.c_str());
                return;
            }
            Arrays<T>& x = arrays_for<T>(Layout(s.nx, s.ny, s.nz, R));
            Stream stream;
            const Box box = x.layout.interior();
            const LaunchShape shape = shape_for(x, box, requested);
            const double t =
                time_launches(st, stream, o.warmup, [&] { launch_with(x, box, stream, shape); });
            report(st, key, cells, bytes, t);
            Expected expected{axes};
            std::vector<double> prev, vel;
            if (axes.empty()) { // the wave updates p_prev in place: once more, from a known p_prev
                prev = x.host(x.prev), vel = x.host(x.vel);
                expected.prev = &prev, expected.vel = &vel;
                launch_with(x, box, stream, shape);
                stream.synchronize();
            }
            check_output<R, T>(st, name + suffix, x, box, c, expected, o.plant_wrong_result);
            st.counters["block_x"] = shape.block_x;
            st.counters["block_y"] = shape.block_y;
            st.counters["window"] = shape.window;
            st.counters["rows"] = shape.rows;
        };
        // Rows exist only in the fused Laplacian and wave; the rest run once, with none.
        const bool has_rows = name == "fused_xyz" || name == "wave";
        const std::vector<int> rows_list =
            o.rows.empty() || !has_rows ? std::vector<int>{0} : o.rows;
        for (const int rows : rows_list) {
            LaunchShape requested = o.shape;
            requested.rows = rows;
            const std::string label = name + suffix + (rows ? "/rows=" + std::to_string(rows) : "");
            register_timed(label,
                           [=](benchmark::State& st) { run_one(st, requested, shape_of, launch); });
        }
        // The tuned shape beside the default, in the same run.
        if (g_tuner && has_rows && o.rows.empty())
            register_timed(name + suffix + "/tuned", [=](benchmark::State& st) {
                Arrays<T>& x = arrays_for<T>(Layout(s.nx, s.ny, s.nz, R));
                const Box box = x.layout.interior();
                const TunedShape choice = g_tuner->shape<R, T>(kernel, x.layout, box);
                st.SetLabel(std::string("shape from ") + shape_source_name(choice.source));
                run_one(
                    st, choice.shape,
                    [](const Arrays<T>&, const Box&, const LaunchShape& t) { return t; }, launch);
            });
    };

    const auto as_given = [](const Arrays<T>&, const Box&, const LaunchShape& t) {
        return resolve_shape(t, R, precision_of<T>());
    };
    for (Variant v : available_variants())
        add(variant_name(v), variant_axes(v), derivative_bytes(s, R, variant_axes(v), sizeof(T)),
            FusedKernel::Laplacian, as_given,
            [=](Arrays<T>& x, const Box& box, Stream& stream, const LaunchShape& shape) {
                launch_derivative<R, T>(v, x.view(x.p), x.view(x.out), box, c, stream, shape);
            });
    // The articles' starting point for the Laplacian: three baseline passes.
    // Each pass writes its own result (no accumulation), so this is a
    // lower bound on the three-pass cost and flatters the baseline.
    // Its output is the last pass's: the z derivative.
    add("baseline_3pass", "z", derivative_bytes(s, R, "xyz", sizeof(T)), FusedKernel::Laplacian,
        as_given, [=](Arrays<T>& x, const Box& box, Stream& stream, const LaunchShape& shape) {
            for (Variant v : {Variant::BaselineX, Variant::BaselineY, Variant::BaselineZ})
                launch_derivative<R, T>(v, x.view(x.p), x.view(x.out), box, c, stream, shape);
        });
    add(
        fused_kernel_name(FusedKernel::Wave), "", wave_bytes(s, R, sizeof(T)), FusedKernel::Wave,
        [](const Arrays<T>& x, const Box& box, const LaunchShape& t) {
            return wave_shape<R, T>(t, x.layout, box);
        },
        [=](Arrays<T>& x, const Box& box, Stream& stream, const LaunchShape& shape) {
            launch_wave_step<R, T>(x.view(x.p), x.view(x.prev), x.view(x.vel), box, c, Sponge{},
                                   stream, shape);
        });
}

// The boundary of a rank with six neighbours: the interior split as the
// mini-app splits it (split_shell), each part's wave update alone, in the
// shapes the mini-app gives it (the slabs as one table launch). shell_x,
// shell_y and shell_z are the two slabs thin along that axis; shell_slabs
// all six, shell_inner the interior they surround. Their Gcell/s against
// each other is what a thin slab costs per cell.
template <int R, class T>
void register_shell(const Size& s, const Options& o) {
    const std::string key = precision_label<T>() + "/" + s.label();
    const auto c = make_coefficients<R, T>(1, 1, 1);
    // Which slabs of split_shell's order (z, z, y, y, x, x) each benchmark runs.
    const std::pair<const char*, std::vector<int>> parts[] = {{"shell_inner", {}},
                                                              {"shell_x", {4, 5}},
                                                              {"shell_y", {2, 3}},
                                                              {"shell_z", {0, 1}},
                                                              {"shell_slabs", {0, 1, 2, 3, 4, 5}}};
    const Layout layout(s.nx, s.ny, s.nz, R);
    const bool all_sides[6] = {true, true, true, true, true, true};
    const ShellSplit split = split_shell(layout.interior(), R, all_sides);
    for (const auto& [name, which] : parts) {
        if (!o.wants(name) && !o.wants("shell")) continue;
        std::vector<Box> boxes;
        if (which.empty()) boxes.push_back(split.inner);
        for (const int b : which)
            boxes.push_back(split.slabs[std::size_t(b)]);
        boxes.erase(
            std::remove_if(boxes.begin(), boxes.end(), [](const Box& b) { return b.empty(); }),
            boxes.end());
        if (boxes.empty()) continue; // a box too small to have this part
        const std::string label = std::string(name) + "/R" + std::to_string(R) + "/" + key;
        const bool inner = which.empty();
        register_timed(label, [=](benchmark::State& st) {
            Arrays<T>& x = arrays_for<T>(layout);
            Stream stream;
            std::vector<LaunchShape> shapes;
            std::vector<LaunchBox> launch;
            double cells = 0;
            for (const Box& box : boxes) {
                shapes.push_back(wave_shape<R, T>(o.shape, x.layout, box));
                launch.push_back({box, shapes.back()});
                cells += double(box.cells());
            }
            const std::vector<WaveTable> tables = wave_tables(x.layout, launch, kLanes<T>);
            auto run = [&] {
                if (inner)
                    launch_wave_step<R, T>(x.view(x.p), x.view(x.prev), x.view(x.vel), boxes[0], c,
                                           Sponge{}, stream, shapes[0]);
                else
                    launch_wave_boxes<R, T>(x.view(x.p), x.view(x.prev), x.view(x.vel), tables, c,
                                            Sponge{}, stream);
            };
            const double t = time_launches(st, stream, o.warmup, run);
            st.counters["Gcell/s"] = t > 0 ? cells / t * 1e-9 : 0.0;
            st.counters["cells"] = cells;
            st.counters["launches"] = inner ? 1 : double(tables.size());
            st.counters["block_x"] = shapes[0].block_x;
            st.counters["block_y"] = shapes[0].block_y;
            st.counters["window"] = shapes[0].window;
            // Once more from a known p_prev, each box against the host.
            std::vector<double> prev = x.host(x.prev), vel = x.host(x.vel);
            run();
            stream.synchronize();
            const std::vector<double> p = x.host(x.p);
            std::vector<double> out = x.host(x.prev);
            if (o.plant_wrong_result)
                out[x.layout.front + x.layout.index(boxes[0].x0, boxes[0].y0, boxes[0].z0)] += 1;
            Expected expected{""};
            expected.prev = &prev, expected.vel = &vel;
            for (const Box& box : boxes)
                if (const std::string why = check_against_host(x.layout, box, c, p, out, expected);
                    !why.empty()) {
                    st.SkipWithError(("wrong result: " + why).c_str());
                    g_wrong.push_back(label + ": " + why);
                    break;
                }
        });
    }
}

void register_all(const Options& o) {
    for (const Size& s : o.sizes)
        for (const Precision precision : o.precisions)
            dispatch_precision(precision, [&](auto zero) {
                using T = decltype(zero);
                // The yardstick runs first for every size and precision,
                // whatever --variants says: every other benchmark reports its
                // ratio to it.
                register_copy<T>(s, o);
                register_series<T>(s, o);
                for (int R : o.radii)
                    dispatch_radius(R, [&](auto rc) {
                        register_radius<decltype(rc)::value, T>(s, o);
                        register_shell<decltype(rc)::value, T>(s, o);
                    });
            });
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

int run_tuning(const Options& o) {
    if (o.tuning_mode == "off") return -1;
    g_tuner = std::make_unique<BenchTuner>(o);
    if (!o.tune_only) return -1;
    std::printf("tuning cache: %s\n", g_tuner->path().c_str());
    tune_all(o);
    return 0;
}

} // namespace stencil::bench

int main(int argc, char** argv) {
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
    const stencil::DeviceInfo info = stencil::device_info(0);
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
    if (const int done = stencil::bench::run_tuning(options); done >= 0) return done;
    stencil::bench::register_all(options);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    if (!stencil::bench::g_wrong.empty()) {
        std::fprintf(stderr, "stencil-bench: %zu benchmark(s) computed a wrong result:\n",
                     stencil::bench::g_wrong.size());
        for (const std::string& line : stencil::bench::g_wrong)
            std::fprintf(stderr, "  %s\n", line.c_str());
        return 1;
    }
    return 0;
}
