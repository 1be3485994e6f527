#include "tune_on_device.hpp"

#include "gpu_runtime.hpp"
#include "graph.hpp"
#include "memory.hpp"
#include "stencil.hpp"

#include <cstring>
#include <random>
#include <vector>

namespace stencil {
namespace {

// The scratch fields of one tuning: inputs, the output's pristine copy (the
// wave updates it in place) and the default's result.
template <class T>
struct Scratch {
    Layout layout;
    DeviceArray<T> p, vel, prev, pristine_prev;
    std::vector<T> reference, result;

    explicit Scratch(const Layout& l)
        : layout(l), p(l.allocation()), vel(l.allocation()), prev(l.allocation()),
          pristine_prev(l.allocation()), result(l.allocation()) {
        std::vector<T> host(l.allocation());
        std::mt19937 rng(7);
        std::uniform_real_distribution<double> dist(-1, 1);
        for (T& x : host)
            x = T(dist(rng));
        copy_to_device(p, host.data());
        copy_to_device(pristine_prev, host.data());
        for (T& x : host)
            x = T(0.05 + 0.05 * (double(x) + 1)); // stable dt^2 c^2 / h^2
        copy_to_device(vel, host.data());
    }
    FieldView<T> view(DeviceArray<T>& a) { return view_of(a.data(), layout); }
};

// Milliseconds per launch of `launch` on `stream`, kLaunches of them
// launched as the mini-app launches them: replayed as one graph where the
// build has graphs, so that a small box's shapes are timed by the device's
// time rather than by the host's launches. After one warm-up launch.
template <class Launch>
double ms_per_launch(Stream& stream, Launch&& launch) {
    constexpr int kLaunches = 5;
    auto launches = [&] {
        for (int n = 0; n < kLaunches; ++n)
            launch();
    };
    launch();
    Graph graph;
    if (graphs_available()) {
        graph = Graph::capture(stream, launches);
        graph.launch(stream); // its first replay uploads it
    }
    Event before, after;
    before.record(stream);
    if (graph.ready())
        graph.launch(stream);
    else
        launches();
    after.record(stream);
    after.synchronize();
    return elapsed_ms(before, after) / kLaunches;
}

} // namespace

template <int R, class T>
TuneResult tune_on_device(FusedKernel kernel, const Layout& layout, const Box& box,
                          double budget_ms, double noise) {
    const Precision precision = precision_of<T>();
    const bool wave = kernel == FusedKernel::Wave; // else the fused Laplacian
    const LaunchShape start = wave ? wave_shape<R, T>(LaunchShape{}, layout, box)
                                   : resolve_shape(LaunchShape{}, R, precision);
    if (!STENCIL_HAS_GPU || box.empty()) {
        TuneResult r;
        r.start = r.best = start;
        return r;
    }
    Scratch<T> s(layout);
    Stream stream;
    const auto c = make_coefficients<R, T>(1, 1, 1);
    auto launch = [&](const LaunchShape& t) {
        if (wave)
            launch_wave_step<R, T>(s.view(s.p), s.view(s.prev), s.view(s.vel), box, c, Sponge{},
                                   stream, t);
        else
            launch_derivative<R, T>(Variant::FusedXYZ, s.view(s.p), s.view(s.prev), box, c, stream,
                                    t);
    };
    // One launch from the pristine inputs; its whole output, on the host.
    auto run_once = [&](const LaunchShape& t, std::vector<T>& out) {
        launch_copy(s.pristine_prev.data(), s.prev.data(), layout.allocation(), stream);
        launch(t);
        stream.synchronize();
        copy_to_host(out.data(), s.prev);
    };
    s.reference.resize(layout.allocation());
    run_once(start, s.reference);
    const ShapeTimer time = [&](const LaunchShape& t) -> Timing {
        if (!fits(t, R, precision, kernel).empty()) return {Timing::CannotRun, 0, 0};
        const double begin = wall_clock_ms();
        run_once(t, s.result);
        if (std::memcmp(s.result.data(), s.reference.data(), s.result.size() * sizeof(T)) != 0)
            return {Timing::WrongResult, 0, wall_clock_ms() - begin};
        const double ms = ms_per_launch(stream, [&] { launch(t); });
        return {Timing::Ran, ms, wall_clock_ms() - begin};
    };
    return coordinate_descent(start, tune_space(kernel, R, precision, box.nz()), time, noise,
                              budget_ms);
}

const char* shape_source_name(ShapeSource source) {
    switch (source) {
    case ShapeSource::Cache:
        return "cache";
    case ShapeSource::TunedNow:
        return "tuned now";
    default:
        return "built-in default";
    }
}

template <int R, class T>
TunedShape cached_or_tuned(TuningCache& cache, FusedKernel kernel, const Layout& layout,
                           const Box& box, double budget_ms) {
    if (!STENCIL_HAS_GPU)
        return {resolve_shape(LaunchShape{}, R, precision_of<T>(), kernel), ShapeSource::BuiltIn,
                "the HOST back-end has no launch shape"};
    const TuneKey key{kernel, R, precision_of<T>(), {box.nx(), box.ny(), box.nz()}};
    if (const TuneEntry* hit = cache.find(key)) return {hit->shape, ShapeSource::Cache, ""};
    const TuneResult r = tune_on_device<R, T>(kernel, layout, box, budget_ms);
    cache.put({key, r.best, r.best_ms, r.start_ms});
    return {r.best, ShapeSource::TunedNow, r.summary()};
}

#define STENCIL_INSTANTIATE_TUNE(R, T)                                                             \
    template TuneResult tune_on_device<R, T>(FusedKernel, const Layout&, const Box&, double,       \
                                             double);                                              \
    template TunedShape cached_or_tuned<R, T>(TuningCache&, FusedKernel, const Layout&,            \
                                              const Box&, double);
STENCIL_FOR_EACH_RADIUS_AND_TYPE(STENCIL_INSTANTIATE_TUNE)

} // namespace stencil
