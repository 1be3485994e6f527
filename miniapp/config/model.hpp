// The physics of the run: velocity model, stable time step, Ricker source.
#pragma once

#include "config/options.hpp"
#include "config/run_plan.hpp"

#include <array>
#include <string>

namespace stencil {

struct Physics {
    double dt = 0, dt_limit = 0;  // seconds; dt <= dt_limit
    double f0 = 0, t0 = 0;        // Ricker peak frequency and delay
    double c_min = 0, c_max = 0;  // m/s
    std::array<int, 3> source{};  // global cell
    float sponge_strength = 0.0f; // eta at the outer boundary
};

// "constant", "layered", or "file:PATH (float32, CRC-32 0a1b2c3d)".
std::string model_name(const Options& c, const RunPlan& plan);

// Wave speed (m/s) at global depth index k of nz cells (constant, layered).
double velocity_at(ModelKind model, int k, int nz);

// Leapfrog stability limit for the order-2R Laplacian on a cubic grid of
// spacing h: dt <= 2 / (c_max * sqrt(lambda_max)), where lambda_max, the
// largest eigenvalue of -L, is 3 (|w_0| + 2 sum |w_r|) / h^2.
double cfl_limit(int radius, double h, double c_max);

// Cells per wavelength the order-2R Laplacian needs for a phase-speed error
// of at most 1% (from its dispersion relation, k_h^2 h^2 = -w_0 -
// 2 sum w_r cos(r k h)): 12.8 at R = 1, 5.3 at R = 2, 3.4 at R = 4, 2.7 at
// R = 8.
double min_cells_per_wavelength(int radius);

// The shortest wavelength the Ricker source carries energy at, c_min / (2.5 f0).
inline double shortest_wavelength(const Physics& p) {
    return p.c_min / (2.5 * p.f0);
}

// Fills `physics` from the options and the run's global grid (for a model
// file, c_min and c_max must already hold check_model_file's); returns an
// empty string, or one line saying what is wrong (a dt above the limit, a
// source outside the grid, a spacing or time step the run's precision
// cannot represent).
std::string resolve_physics(const Options& c, const std::array<int, 3>& grid, Physics& physics);

} // namespace stencil
