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
// dt^2 / h^3 in the source. The line names the option a number came from:
// dt and f0 follow from --spacing unless given (--dt 1e-300 was blamed on
// --spacing).
std::string representable(const Options& c, const Physics& p) {
    const double h = c.spacing;
    char spacing[64], dt[64], f0[64];
    std::snprintf(spacing, sizeof spacing, "--spacing %g m", h);
    std::snprintf(dt, sizeof dt, "--dt %g s", c.dt);
    std::snprintf(f0, sizeof f0, "--f0 %g Hz", c.f0);
    const std::string from_dt = c.dt > 0 ? dt : std::string(spacing) + " (dt follows from it)";
    const struct {
        double value;
        const char* what;
        std::string from;
    } numbers[] = {
        {h, "h", spacing},
        {1 / (h * h), "1/h^2", spacing},
        {p.dt, "dt", from_dt},
        {std::pow(p.dt * p.c_max, 2), "dt^2 c^2", from_dt},
        {p.dt * p.dt / (h * h * h), "dt^2/h^3",
         c.dt > 0 ? std::string(dt) + " with " + spacing : std::string(spacing)},
        {p.f0, "f0", c.f0 > 0 ? f0 : std::string(spacing) + " (f0 follows from it)"},
    };
    for (const auto& n : numbers) {
        const bool ok =
            c.precision == Precision::FP32 ? std::isnormal(float(n.value)) : std::isnormal(n.value);
        if (!ok) {
            char line[160];
            std::snprintf(line, sizeof line, " gives %s = %g, which %s cannot hold", n.what,
                          n.value, precision_name(c.precision));
            return n.from + line + "; use SI units (metres, seconds, hertz), such as --spacing 10";
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
