#include "config/model.hpp"

#include "coefficients.hpp"
#include "io/crc32.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace stencil {

std::string model_name(const Options& c, const RunPlan& plan) {
    if (c.model == ModelKind::Constant) return "constant";
    if (c.model == ModelKind::Layered) return "layered";
    return "file:" + c.model_path + " (" + (plan.model_fp64 ? "float64" : "float32") + ", CRC-32 " +
           crc32_hex(plan.model_crc32) + ")";
}

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

double min_cells_per_wavelength(int radius) {
    const auto w = central_second_derivative_weights(radius);
    const double pi = 3.14159265358979323846;
    // Relative phase-speed error of a wave `cells` cells long; it falls as
    // the wave gets longer, so the first length within 1% is the answer.
    const auto error = [&](double cells) {
        const double kh = 2 * pi / cells;
        long double k2 = -w[0];
        for (int r = 1; r <= radius; ++r)
            k2 -= 2 * w[r] * std::cos(r * kh);
        return std::fabs(std::sqrt(double(k2)) / kh - 1);
    };
    double cells = 2.0;
    while (error(cells) > 0.01)
        cells += 0.01;
    return cells;
}

namespace {

// What the kernels compute with must be a normal number in the run's
// precision: 1/h^2 in the weights, dt^2 c^2 in the velocity field and
// dt^2 / h^3 in the source.
std::string representable(const Options& c, const Physics& p) {
    const double h = c.spacing;
    const double values[] = {
        h, 1 / (h * h), p.dt, std::pow(p.dt * p.c_max, 2), p.dt * p.dt / (h * h * h), p.f0};
    for (const double v : values) {
        const bool ok = c.precision == Precision::FP32 ? std::isnormal(float(v)) : std::isnormal(v);
        if (!ok) {
            char line[200];
            std::snprintf(line, sizeof line,
                          "--spacing %g m with dt %g s and f0 %g Hz gives numbers %s cannot hold "
                          "(1/h^2, dt^2 c^2 or dt^2/h^3); use SI units, such as --spacing 10",
                          h, p.dt, p.f0, precision_name(c.precision));
            return line;
        }
    }
    return {};
}

} // namespace

std::string resolve_physics(const Options& c, const std::array<int, 3>& grid, Physics& p) {
    // The speed range comes from the model itself, over every depth of the
    // grid (a model file's: check_model_file found it, and filled it in).
    if (c.model != ModelKind::File) {
        p.c_min = p.c_max = velocity_at(c.model, 0, grid[2]);
        for (int k = 1; k < grid[2]; ++k) {
            p.c_min = std::min(p.c_min, velocity_at(c.model, k, grid[2]));
            p.c_max = std::max(p.c_max, velocity_at(c.model, k, grid[2]));
        }
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
    // wavelength, c_min / (2.5 f0), at least 6 cells long, and at least as
    // long as the stencil needs (R = 1: 12.8 cells).
    const double cells = std::max(6.0, min_cells_per_wavelength(c.radius));
    p.f0 = c.f0 > 0 ? c.f0 : p.c_min / (2.5 * cells * c.spacing);
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
    return representable(c, p);
}

} // namespace stencil
