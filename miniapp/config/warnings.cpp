#include "config/warnings.hpp"

#include "mpi_util.hpp"

#include <cstdio>

namespace stencil {
namespace {

std::string number(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", value);
    return text;
}

// Whether a global cell lies within `width` cells of an edge of the grid.
bool in_sponge(const std::array<int, 3>& cell, const std::array<int, 3>& grid, int width) {
    for (int a = 0; a < 3; ++a)
        if (cell[a] < width || cell[a] >= grid[a] - width) return true;
    return false;
}

std::string dispersion_warning(const Options& c, const Physics& p) {
    const double cells = shortest_wavelength(p) / c.spacing;
    const double needed = min_cells_per_wavelength(c.radius);
    if (cells >= needed * (1 - 1e-9)) return {}; // the default f0 sits exactly on it at R = 1
    return "--f0 " + number(p.f0) + " Hz gives " + number(cells) +
           " cells per shortest wavelength (c_min/(2.5 f0) = " + number(shortest_wavelength(p)) +
           " m at h = " + number(c.spacing) + " m); the order-" + std::to_string(2 * c.radius) +
           " stencil needs " + number(needed) +
           " for 1% phase-speed error: expect numerical dispersion";
}

void sponge_warnings(const RunContext& run, std::vector<std::string>& out) {
    const Options& c = run.options;
    const RunPlan& plan = run.plan;
    const Physics& p = run.physics;
    const std::array<int, 3>& grid = plan.grid;
    const int w = c.sponge;
    if (w == 0) return;
    for (int a = 0; a < 3; ++a)
        if (2 * w > grid[a]) {
            out.push_back("--sponge " + std::to_string(w) + " is wider than half the grid along " +
                          "xyz"[a] + " (" + std::to_string(grid[a]) +
                          " cells): the sponge damps every cell there");
            break;
        }
    if (in_sponge(p.source, grid, w))
        out.push_back("the source " + std::to_string(p.source[0]) + "," +
                      std::to_string(p.source[1]) + "," + std::to_string(p.source[2]) +
                      " lies in the sponge (within " + std::to_string(w) +
                      " cells of an edge): its wave is damped from the start");
    // A --receiver-line crosses the whole grid along x, so its ends always
    // lie in the sponge; it is the line's depth and y that matter.
    if (c.line_axis == 2 && in_sponge({grid[0] / 2, p.source[1], c.line_index}, grid, w))
        out.push_back("the receiver line z=" + std::to_string(c.line_index) +
                      " at y=" + std::to_string(p.source[1]) + " lies in the sponge (within " +
                      std::to_string(w) + " cells of an edge): its traces are damped");
    int damped = 0;
    for (const auto& r : plan.receivers)
        damped += in_sponge(r, grid, w);
    if (damped > 0)
        out.push_back(std::to_string(damped) + " of " + std::to_string(plan.receivers.size()) +
                      " receivers lie in the sponge (within " + std::to_string(w) +
                      " cells of an edge): their traces are damped");
}

} // namespace

std::vector<std::string> input_warnings(const RunContext& run) {
    const Options& c = run.options;
    const Physics& physics = run.physics;
    std::vector<std::string> warnings = c.repeated;
    if (std::string w = dispersion_warning(c, physics); !w.empty()) warnings.push_back(w);
    sponge_warnings(run, warnings);
    if (c.slab_x > 0 && c.overlap == OverlapChoice::Off)
        warnings.push_back("--slab-x " + std::to_string(c.slab_x) +
                           " does nothing with --overlap off: each step updates the whole box "
                           "in one kernel, without boundary slabs");
    if (c.snapshot_every > c.steps)
        warnings.push_back("--snapshot-every " + std::to_string(c.snapshot_every) +
                           " is longer than the run (" + std::to_string(c.steps) +
                           " steps): no snapshot will be written" +
                           (c.slice_axis >= 0 ? ", only the final slice image" : ""));
    if (c.checkpoint_every > c.steps)
        warnings.push_back("--checkpoint-every " + std::to_string(c.checkpoint_every) +
                           " is longer than the run (" + std::to_string(c.steps) +
                           " steps): no checkpoint will be written, except on a stop signal");
    return warnings;
}

void print_warnings(const std::vector<std::string>& warnings) {
    if (world_rank() != 0) return;
    for (const std::string& w : warnings)
        std::fprintf(stderr, "stencil-miniapp: warning: %s\n", w.c_str());
}

} // namespace stencil
