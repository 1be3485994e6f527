#include "model.hpp"

#include "coefficients.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace stencil {

double velocity_at(ModelKind model, int k, int nz) {
    if (model == ModelKind::Constant) return 1500.0;
    // Four horizontal layers, faster with depth: water, sediments, two rocks.
    static const double layers[] = {1500.0, 2000.0, 2600.0, 3200.0};
    const int layer = int((long long)k * 4 / nz);
    return layers[layer < 4 ? layer : 3];
}

double cfl_limit(int radius, double h, double c_max) {
    const auto w = central_second_derivative_weights(radius);
    long double sum = std::fabs(w[0]);
    for (int r = 1; r <= radius; ++r)
        sum += 2 * std::fabs(w[r]);
    const double lambda_max = 3.0 * double(sum) / (h * h);
    return 2.0 / (c_max * std::sqrt(lambda_max));
}

std::string resolve_physics(const Config& c, const std::array<int, 3>& grid, Physics& p) {
    // The speed range comes from the model itself, over every depth of the grid.
    p.c_min = p.c_max = velocity_at(c.model, 0, grid[2]);
    for (int k = 1; k < grid[2]; ++k) {
        p.c_min = std::min(p.c_min, velocity_at(c.model, k, grid[2]));
        p.c_max = std::max(p.c_max, velocity_at(c.model, k, grid[2]));
    }
    p.dt_limit = cfl_limit(c.radius, c.spacing, p.c_max);
    p.dt = c.dt > 0 ? c.dt : 0.8 * p.dt_limit;
    if (p.dt > p.dt_limit) {
        char line[160];
        std::snprintf(line, sizeof line,
                      "--dt %g is above the stability limit %.6g s for R=%d, h=%g m, c_max=%g m/s",
                      c.dt, p.dt_limit, c.radius, c.spacing, p.c_max);
        return line;
    }
    // A Ricker wavelet carries energy up to about 2.5 f0: keep its shortest
    // wavelength, c_min / (2.5 f0), at least 6 cells long.
    p.f0 = c.f0 > 0 ? c.f0 : p.c_min / (2.5 * 6.0 * c.spacing);
    p.t0 = 1.5 / p.f0;
    for (int a = 0; a < 3; ++a) {
        p.source[a] = c.source[a] < 0 ? grid[a] / 2 : c.source[a];
        if (p.source[a] >= grid[a]) {
            const char* names = "xyz";
            return std::string("--source: ") + names[a] + "=" + std::to_string(p.source[a]) +
                   " is outside the grid (0.." + std::to_string(grid[a] - 1) + ")";
        }
    }
    p.sponge_strength = 0.1f;
    return {};
}

} // namespace stencil
