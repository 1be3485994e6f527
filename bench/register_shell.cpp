// The boundary of a rank with six neighbours: the interior split as the
// mini-app splits it (split_shell, the x slabs slab_x_depth wide), each
// part's wave update alone, on the kernels and in the shapes the mini-app
// gives it (the slabs in one launch a table). shell_x,
// shell_y and shell_z are the two slabs thin along that axis; shell_slabs
// all six, shell_inner the interior they surround. Their Gcell/s against
// each other is what a thin slab costs per cell.
#include "bench_register.hpp"
#include "bench_timing.hpp"
#include "launch_table.hpp"

#include <algorithm>
#include <cstdio>
#include <utility>

namespace stencil::bench {
namespace {

// One part of the shell: its boxes (the interior alone, or slabs).
template <int R, class T>
struct ShellPart {
    std::string label;
    Layout layout;
    std::vector<Box> boxes;
    bool inner;
    int x_depth; // cells of the x slabs
    Coefficients<R, T> c;
    Options o;
};

// The slabs of split_shell's order (z, z, y, y, x, x) that `which` names,
// or the inner box when it names none; empty boxes left out.
std::vector<Box> part_boxes(const ShellSplit& split, const std::vector<int>& which) {
    std::vector<Box> boxes;
    if (which.empty()) boxes.push_back(split.inner);
    for (const int b : which)
        boxes.push_back(split.slabs[std::size_t(b)]);
    boxes.erase(std::remove_if(boxes.begin(), boxes.end(), [](const Box& b) { return b.empty(); }),
                boxes.end());
    return boxes;
}

// Once more from a known p_prev, each box against the host: only the
// boxes' checked planes come back (bench_check.hpp), not whole fields.
template <int R, class T, class Run>
void check_part(benchmark::State& st, const ShellPart<R, T>& part, Arrays<T>& x, Stream& stream,
                Run&& run) {
    const HostPlanes prev = x.planes(x.prev, part.boxes, 0), vel = x.planes(x.vel, part.boxes, 0);
    run();
    stream.synchronize();
    if (part.o.plant_wrong_result) x.plant_wrong_cell(x.prev, part.boxes[0]);
    const HostPlanes p = x.planes(x.p, part.boxes, R), out = x.planes(x.prev, part.boxes, 0);
    Expected expected{""};
    expected.prev = &prev, expected.vel = &vel;
    for (const Box& box : part.boxes)
        if (const std::string why = check_against_host(x.layout, box, part.c, p, out, expected);
            !why.empty()) {
            record_wrong(st, part.label, why);
            break;
        }
}

// Times the part's wave update in the mini-app's shapes, then checks it.
template <int R, class T>
void run_part(benchmark::State& st, const ShellPart<R, T>& part) {
    Arrays<T>& x = arrays_for<T>(part.layout);
    Stream stream;
    std::vector<LaunchShape> shapes;
    std::vector<LaunchBox> launch;
    double cells = 0;
    for (const Box& box : part.boxes) {
        // The interior in the mini-app's shape for it; the slabs on the
        // mini-app's kernel for them, with --window as a sweep of their z window.
        const SlabKernel kernel =
            part.o.slab_kernel.value_or(slab_kernel(x.layout, box, kLanes<T>, part.x_depth));
        shapes.push_back(part.inner ? wave_shape<R, T>(part.o.shape, x.layout, box)
                                    : slab_shape<R, T>(x.layout, box, kernel, part.o.shape.window));
        launch.push_back({box, shapes.back(), kernel});
        cells += double(box.cells());
    }
    const std::vector<WaveTable> tables = wave_tables(x.layout, launch, kLanes<T>);
    auto run = [&] {
        if (part.inner)
            launch_wave_step<R, T>(x.view(x.p), x.view(x.prev), x.view(x.vel), part.boxes[0],
                                   part.c, Sponge{}, stream, shapes[0]);
        else
            launch_wave_boxes<R, T>(x.view(x.p), x.view(x.prev), x.view(x.vel), tables, part.c,
                                    Sponge{}, stream);
    };
    const double t = time_launches(st, stream, part.o.warmup, run);
    st.counters["Gcell/s"] = t > 0 ? cells / t * 1e-9 : 0.0;
    st.counters["cells"] = cells;
    st.counters["launches"] = part.inner ? 1 : double(tables.size());
    // The slabs' kernel (0 tile, 1 thin, 2 cells); -1 for the interior.
    st.counters["slab_kernel"] = part.inner ? -1 : double(int(launch.back().kernel));
    st.counters["block_x"] = shapes[0].block_x;
    st.counters["block_y"] = shapes[0].block_y;
    st.counters["window"] = shapes[0].window;
    check_part(st, part, x, stream, run);
}

template <int R, class T>
void register_parts(const Size& s, const Options& o) {
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
    // The x slabs as the mini-app makes them (--slab-x auto), or --slab-x's.
    const int x_depth = slab_x_depth(o.slab_x, R, s.nx, precision_of<T>());
    const ShellSplit split = split_shell(layout.interior(), {x_depth, R, R}, all_sides);
    const bool any_part =
        o.wants("shell") || std::any_of(std::begin(parts), std::end(parts),
                                        [&](const auto& p) { return o.wants(p.first); });
    if (any_part && o.slab_x > 0 && split.inner.empty() &&
        !split_shell(layout.interior(), {R, R, R}, all_sides).inner.empty())
        std::fprintf(stderr,
                     "stencil-bench: --slab-x=%d leaves no inner box at %s, R = %d: the x slabs "
                     "take every cell the y and z slabs leave (no shell_inner)\n",
                     o.slab_x, key.c_str(), R);
    for (const auto& [name, which] : parts) {
        if (!o.wants(name) && !o.wants("shell")) continue;
        const std::vector<Box> boxes = part_boxes(split, which);
        if (boxes.empty()) continue; // a box too small to have this part
        const std::string label = std::string(name) + "/R" + std::to_string(R) + "/" + key;
        const ShellPart<R, T> part{label, layout, boxes, which.empty(), x_depth, c, o};
        register_timed(label, [part](benchmark::State& st) { run_part(st, part); });
    }
}

} // namespace

void register_shell(const Size& s, const Options& o, Precision precision, int R) {
    dispatch_precision(precision, [&](auto zero) {
        dispatch_radius(
            R, [&](auto rc) { register_parts<decltype(rc)::value, decltype(zero)>(s, o); });
    });
}

} // namespace stencil::bench
