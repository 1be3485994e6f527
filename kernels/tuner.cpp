#include "tuner.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <tuple>

namespace stencil {

TuneSpace tune_space(FusedKernel kernel, int radius, Precision precision, int nz) {
    TuneSpace space;
    // 64 to 256 threads, wide (64 x 2: two 64-lane AMD wavefronts, one row
    // each) to tall (4 x 32: the slabs of an x split want narrow blocks).
    const std::pair<int, int> blocks[] = {{16, 8}, {8, 16}, {32, 4}, {32, 8}, {16, 16},
                                          {8, 8},  {64, 2}, {64, 4}, {4, 32}, {16, 4}};
    for (const auto& [bx, by] : blocks) {
        const LaunchShape t = resolve_shape(LaunchShape{bx, by, 0, 1}, radius, precision);
        if (fits(t, radius, precision, kernel).empty()) space.blocks.push_back({bx, by});
    }
    for (int window = 1; window <= 64; window *= 2)
        if (window <= nz || window == 1) space.windows.push_back(window);
    for (int rows = 1; rows <= max_fused_rows(radius, kernel); rows *= 2)
        space.rows.push_back(rows);
    // Two planes ahead are built only at the default rows; the descent tries
    // them there, and fits() refuses them at other rows.
    if (kernel == FusedKernel::Wave &&
        two_planes_ahead_built(radius, precision, default_rows(radius, precision, kernel)))
        space.aheads.push_back(2);
    if (kernel == FusedKernel::Wave) space.bodies.push_back(WaveBody::Cells);
    return space;
}

std::string TuneResult::summary() const {
    char text[256];
    const double gain = best_ms > 0 && start_ms > 0 ? start_ms / best_ms : 1.0;
    std::snprintf(text, sizeof text,
                  "%s: %.4f ms (default %s: %.4f ms, %.2fx); %d shapes timed, %d refused%s",
                  shape_summary(best).c_str(), best_ms, shape_summary(start).c_str(), start_ms,
                  gain, tried, refused, out_of_time ? ", stopped by the time budget" : "");
    if (unconfirmed) return std::string(text) + "; a faster shape lost its lead when timed again";
    return text;
}

namespace {

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

// Times `a` and `b` in alternation, `rounds` times each; whether b's median
// beats a's by `noise`, and the two medians.
bool confirmed(const LaunchShape& a, const LaunchShape& b, const ShapeTimer& time, int rounds,
               double noise, double& a_ms, double& b_ms) {
    std::vector<double> ta, tb;
    for (int n = 0; n < rounds; ++n) {
        const Timing x = time(a), y = time(b);
        if (x.outcome != Timing::Ran || y.outcome != Timing::Ran) return false;
        ta.push_back(x.ms), tb.push_back(y.ms);
    }
    a_ms = median(ta), b_ms = median(tb);
    return b_ms < a_ms * (1 - noise);
}

// A shape's coordinates, its planes ahead as it runs them.
using Coordinates = std::tuple<int, int, int, int, int, int>;
Coordinates coordinates(const LaunchShape& t) {
    return {t.block_x, t.block_y, t.window, t.rows, t.planes_ahead(), int(t.body)};
}

bool same_shape(const LaunchShape& a, const LaunchShape& b) {
    return coordinates(a) == coordinates(b);
}

// The shapes that differ from `best` in one coordinate alone (0 block, 1
// window, 2 rows, 3 planes ahead, 4 body), each value the space holds. The
// cells body has no rows or planes ahead to move: one each.
constexpr int kCoordinates = 5;
std::vector<LaunchShape> shapes_along(int coordinate, const LaunchShape& b,
                                      const TuneSpace& space) {
    std::vector<LaunchShape> shapes;
    const bool cells = b.body == WaveBody::Cells;
    if (coordinate == 0)
        for (const auto& [bx, by] : space.blocks)
            shapes.push_back({bx, by, b.window, b.rows, b.ahead, b.body});
    if (coordinate == 1)
        for (int w : space.windows)
            shapes.push_back({b.block_x, b.block_y, w, b.rows, b.ahead, b.body});
    if (coordinate == 2 && !cells)
        for (int rows : space.rows)
            shapes.push_back({b.block_x, b.block_y, b.window, rows, b.ahead, b.body});
    if (coordinate == 3 && !cells)
        for (int ahead : space.aheads)
            shapes.push_back({b.block_x, b.block_y, b.window, b.rows, ahead, b.body});
    if (coordinate == 4)
        for (const WaveBody body : space.bodies)
            shapes.push_back(
                body == WaveBody::Cells
                    ? LaunchShape{b.block_x, b.block_y, b.window, 1, 1, body}
                    : LaunchShape{b.block_x, b.block_y, b.window, b.rows, b.ahead, body});
    return shapes;
}

} // namespace

TuneResult coordinate_descent(const LaunchShape& start, const TuneSpace& space,
                              const ShapeTimer& time, double noise, double budget_ms,
                              int confirm_rounds) {
    TuneResult r;
    r.start = r.best = start;
    std::map<Coordinates, Timing> seen; // each shape timed once
    double spent = 0;
    auto measure = [&](const LaunchShape& t) -> Timing {
        const auto key = coordinates(t);
        if (const auto it = seen.find(key); it != seen.end()) return it->second;
        const Timing timing = time(t);
        ++r.tried;
        if (timing.outcome != Timing::Ran) ++r.refused;
        spent += timing.spent_ms;
        return seen[key] = timing;
    };
    const Timing first = measure(start);
    if (first.outcome != Timing::Ran) return r;
    r.start_ms = r.best_ms = first.ms;
    for (bool moved = true; moved && !r.out_of_time;) {
        moved = false;
        for (int coordinate = 0; coordinate < kCoordinates && !r.out_of_time; ++coordinate)
            for (const LaunchShape& t : shapes_along(coordinate, r.best, space)) {
                if (spent >= budget_ms) {
                    r.out_of_time = true;
                    break;
                }
                const Timing timing = measure(t);
                if (timing.outcome == Timing::Ran && timing.ms < r.best_ms * (1 - noise)) {
                    r.best = t, r.best_ms = timing.ms;
                    moved = true;
                }
            }
    }
    if (!same_shape(r.best, start) && confirm_rounds > 0) {
        double start_ms = 0, best_ms = 0;
        if (confirmed(start, r.best, time, confirm_rounds, noise, start_ms, best_ms)) {
            r.start_ms = start_ms, r.best_ms = best_ms;
        } else {
            r.unconfirmed = true;
            r.best = start, r.best_ms = r.start_ms;
        }
    }
    return r;
}

} // namespace stencil
