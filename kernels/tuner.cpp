#include "tuner.hpp"

#include <cstdio>
#include <map>
#include <tuple>

namespace stencil {

TuneSpace wave_tune_space(int radius, Precision precision, int nz, bool wave) {
    TuneSpace space;
    // From a wavefront-wide 64 x 1 (AMD's wave is 64 lanes) to 256 threads,
    // tall and wide: the slabs of an x split want narrow blocks.
    const std::pair<int, int> blocks[] = {{16, 8}, {8, 16}, {32, 4}, {32, 8}, {16, 16},
                                          {8, 8},  {64, 2}, {64, 4}, {4, 32}, {16, 4}};
    for (const auto& [bx, by] : blocks) {
        const Tuning t = resolve_tuning(Tuning{bx, by, 0, 1}, radius, precision);
        if (fits(t, radius, precision, wave).empty()) space.blocks.push_back({bx, by});
    }
    for (int window = 1; window <= 64; window *= 2)
        if (window <= nz || window == 1) space.windows.push_back(window);
    for (int rows = 1; rows <= max_fused_rows(radius, wave); rows *= 2)
        space.rows.push_back(rows);
    return space;
}

namespace {

std::string shape(const Tuning& t) {
    char text[64];
    std::snprintf(text, sizeof text, "%dx%d threads, %d planes, %d rows", t.block_x, t.block_y,
                  t.window, t.rows);
    return text;
}

} // namespace

std::string TuneResult::summary() const {
    char text[256];
    const double gain = best_ms > 0 && start_ms > 0 ? start_ms / best_ms : 1.0;
    std::snprintf(text, sizeof text,
                  "%s: %.4f ms (default %s: %.4f ms, %.2fx); %d shapes timed, %d refused%s",
                  shape(best).c_str(), best_ms, shape(start).c_str(), start_ms, gain, tried,
                  refused, out_of_time ? ", stopped by the time budget" : "");
    return text;
}

TuneResult coordinate_descent(const Tuning& start, const TuneSpace& space, const ShapeTimer& time,
                              double noise, double budget_ms) {
    TuneResult r;
    r.start = r.best = start;
    std::map<std::tuple<int, int, int, int>, Timing> seen; // each shape timed once
    double spent = 0;
    auto measure = [&](const Tuning& t) -> Timing {
        const auto key = std::make_tuple(t.block_x, t.block_y, t.window, t.rows);
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
    // Each coordinate as a list of shapes that differ from the best in it alone.
    auto along = [&](int coordinate) {
        std::vector<Tuning> shapes;
        if (coordinate == 0)
            for (const auto& [bx, by] : space.blocks)
                shapes.push_back({bx, by, r.best.window, r.best.rows});
        if (coordinate == 1)
            for (int w : space.windows)
                shapes.push_back({r.best.block_x, r.best.block_y, w, r.best.rows});
        if (coordinate == 2)
            for (int rows : space.rows)
                shapes.push_back({r.best.block_x, r.best.block_y, r.best.window, rows});
        return shapes;
    };
    for (bool moved = true; moved;) {
        moved = false;
        for (int coordinate = 0; coordinate < 3; ++coordinate)
            for (const Tuning& t : along(coordinate)) {
                if (spent >= budget_ms) {
                    r.out_of_time = true;
                    return r;
                }
                const Timing timing = measure(t);
                if (timing.outcome == Timing::Ran && timing.ms < r.best_ms * (1 - noise)) {
                    r.best = t, r.best_ms = timing.ms;
                    moved = true;
                }
            }
    }
    return r;
}

} // namespace stencil
