// The copy (the yardstick), the Laplacian series' steps and every kernel
// variant at each radius, registered per size and precision.
#include "bench_register.hpp"
#include "bench_timing.hpp"
#include "bench_tuning.hpp"
#include "launch_table.hpp"
#include "memory.hpp"
#include "series.hpp"

#include <algorithm>

namespace stencil::bench {
namespace {

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
        if (t > 0) record_copy_gbs(key, bytes / t * 1e-9);
        report(st, key, double(n), bytes, t);
        // The yardstick must copy too: every element, bit for bit.
        std::vector<double> in = x.host(x.p), out = x.host(x.out);
        if (o.plant_wrong_result) out[0] += 1.0;
        if (!std::equal(in.begin(), in.begin() + long(n), out.begin()))
            record_wrong(st, "copy/" + key, "the copy differs from its source");
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

// One kernel at radius R in precision T over the size's interior: its
// name, the derivatives its output holds (`axes`, empty for the wave
// update), the bytes it moves, and `kernel`, which bounds its rows (the
// kernels other than the fused two ignore them).
template <int R, class T>
struct Family {
    Size s;
    Options o;
    std::string name, axes, key, suffix;
    double bytes, cells;
    FusedKernel kernel;
    Coefficients<R, T> c;
};

// One benchmark: `requested` completed by shape_for(arrays, box, requested),
// skipped with the reason when the kernel is not built for it; then
// launch_with(arrays, box, stream, shape) timed and checked. The shape is
// resolved once per benchmark, as the mini-app does, not per launch; its z
// window and rows are recorded as counters.
template <int R, class T, class ShapeFor, class Launch>
void run_family(benchmark::State& st, const Family<R, T>& f, const LaunchShape& requested,
                const ShapeFor& shape_for, const Launch& launch_with) {
    const std::string why = fits(resolve_shape(requested, R, precision_of<T>(), f.kernel), R,
                                 precision_of<T>(), f.kernel);
    if (!why.empty()) {
        // Google Benchmark 1.7 has no skip but an error; the "skipped: "
        // prefix tells it from a wrong result ("wrong result: ") in the JSON.
        st.SkipWithError(("skipped: " + why).c_str());
        return;
    }
    Arrays<T>& x = arrays_for<T>(Layout(f.s.nx, f.s.ny, f.s.nz, R));
    Stream stream;
    const Box box = x.layout.interior();
    const LaunchShape shape = shape_for(x, box, requested);
    const double t =
        time_launches(st, stream, f.o.warmup, [&] { launch_with(x, box, stream, shape); });
    report(st, f.key, f.cells, f.bytes, t);
    Expected expected{f.axes};
    HostPlanes prev(x.layout), vel(x.layout);
    if (f.axes.empty()) { // the wave updates p_prev in place: once more, from a known p_prev
        prev = x.planes(x.prev, {box}, 0), vel = x.planes(x.vel, {box}, 0);
        expected.prev = &prev, expected.vel = &vel;
        launch_with(x, box, stream, shape);
        stream.synchronize();
    }
    check_output<R, T>(st, f.name + f.suffix, x, box, f.c, expected, f.o.plant_wrong_result);
    st.counters["block_x"] = shape.block_x;
    st.counters["block_y"] = shape.block_y;
    st.counters["window"] = shape.window;
    st.counters["rows"] = shape.rows;
    st.counters["ahead"] = shape.ahead;
}

// The family's benchmarks: one per --rows value (rows exist only in the
// fused Laplacian and wave; the rest run once, with none) and, in the wave,
// per --ahead value, and with
// --tuning the tuned shape beside the default, in the same run.
template <int R, class T, class ShapeOf, class Launch>
void add_family(const Family<R, T>& f, ShapeOf shape_of, Launch launch) {
    if (!f.o.wants(f.name)) return;
    const bool has_rows = f.name == "fused_xyz" || f.name == "wave";
    const std::vector<int> rows_list =
        f.o.rows.empty() || !has_rows ? std::vector<int>{0} : f.o.rows;
    const std::vector<int> ahead_list =
        f.o.ahead.empty() || f.name != "wave" ? std::vector<int>{0} : f.o.ahead;
    for (const int rows : rows_list)
        for (const int ahead : ahead_list) {
            LaunchShape requested = f.o.shape;
            requested.rows = rows, requested.ahead = ahead;
            const std::string label = f.name + f.suffix +
                                      (rows ? "/rows=" + std::to_string(rows) : "") +
                                      (ahead ? "/ahead=" + std::to_string(ahead) : "");
            register_timed(label, [=](benchmark::State& st) {
                run_family(st, f, requested, shape_of, launch);
            });
        }
    if (bench_tuner() && has_rows && f.o.rows.empty())
        register_timed(f.name + f.suffix + "/tuned", [=](benchmark::State& st) {
            Arrays<T>& x = arrays_for<T>(Layout(f.s.nx, f.s.ny, f.s.nz, R));
            const Box box = x.layout.interior();
            const TunedShape choice = bench_tuner()->shape<R, T>(f.kernel, x.layout, box);
            st.SetLabel(std::string("shape from ") + shape_source_name(choice.source));
            run_family(
                st, f, choice.shape,
                [](const Arrays<T>&, const Box&, const LaunchShape& t) { return t; }, launch);
        });
}

// Every variant at radius R in precision T over the size's interior.
template <int R, class T>
void register_radius(const Size& s, const Options& o) {
    const std::string key = precision_label<T>() + "/" + s.label();
    const std::string suffix = "/R" + std::to_string(R) + "/" + key;
    const auto c = make_coefficients<R, T>(1, 1, 1);
    const double cells = double(s.nx) * s.ny * s.nz;
    auto family = [&](const std::string& name, const std::string& axes, double bytes,
                      FusedKernel kernel) {
        return Family<R, T>{s, o, name, axes, key, suffix, bytes, cells, kernel, c};
    };
    const auto as_given = [](const Arrays<T>&, const Box&, const LaunchShape& t) {
        return resolve_shape(t, R, precision_of<T>());
    };
    for (Variant v : available_variants())
        add_family(
            family(variant_name(v), variant_axes(v),
                   derivative_bytes(s, R, variant_axes(v), sizeof(T)), FusedKernel::Laplacian),
            as_given, [=](Arrays<T>& x, const Box& box, Stream& stream, const LaunchShape& shape) {
                launch_derivative<R, T>(v, x.view(x.p), x.view(x.out), box, c, stream, shape);
            });
    // The articles' starting point for the Laplacian: three baseline passes.
    // Each pass writes its own result (no accumulation), so this is a
    // lower bound on the three-pass cost and flatters the baseline.
    // Its output is the last pass's: the z derivative.
    add_family(
        family("baseline_3pass", "z", derivative_bytes(s, R, "xyz", sizeof(T)),
               FusedKernel::Laplacian),
        as_given, [=](Arrays<T>& x, const Box& box, Stream& stream, const LaunchShape& shape) {
            for (Variant v : {Variant::BaselineX, Variant::BaselineY, Variant::BaselineZ})
                launch_derivative<R, T>(v, x.view(x.p), x.view(x.out), box, c, stream, shape);
        });
    add_family(
        family(fused_kernel_name(FusedKernel::Wave), "", wave_bytes(s, R, sizeof(T)),
               FusedKernel::Wave),
        [](const Arrays<T>& x, const Box& box, const LaunchShape& t) {
            return wave_shape<R, T>(t, x.layout, box);
        },
        [=](Arrays<T>& x, const Box& box, Stream& stream, const LaunchShape& shape) {
            launch_wave_step<R, T>(x.view(x.p), x.view(x.prev), x.view(x.vel), box, c, Sponge{},
                                   stream, shape);
        });
}

} // namespace

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
                for (int R : o.radii) {
                    dispatch_radius(
                        R, [&](auto rc) { register_radius<decltype(rc)::value, T>(s, o); });
                    register_shell(s, o, precision, R);
                }
            });
}

} // namespace stencil::bench
