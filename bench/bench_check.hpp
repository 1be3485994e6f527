// The benchmark checks its own results, once per benchmark, after timing:
// the output of the last launch against a host reference computed another
// way, cell by cell in long double straight from the weights, on the first
// and last planes of the box (every x and y of the box, and both z ends,
// where a halo or window bug shows first). A wrong kernel then cannot post
// a fast time unnoticed.
#pragma once

#include "coefficients.hpp"
#include "layout.hpp"

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace stencil::bench {

// What the output should hold: the derivatives named by `axes` ("x", "xy",
// "xyz", ...) of p, or, for the wave update (axes empty), the undamped
// leapfrog 2p - prev + vel * L(p).
struct Expected {
    std::string axes;
    const std::vector<double>* prev = nullptr; // wave only: p_prev before the launch
    const std::vector<double>* vel = nullptr;  // wave only
};

// Empty when every sampled cell of `out` is within a relative 1e-5 (FP32)
// or 1e-12 (FP64) of the reference, scaled by the largest reference value;
// else one line naming the worst cell. `p` and `out` hold the whole
// allocation of `layout`, widened to double.
template <int R, class T>
std::string check_against_host(const Layout& layout, const Box& box, const Coefficients<R, T>& c,
                               const std::vector<double>& p, const std::vector<double>& out,
                               const Expected& expected) {
    const bool wave = expected.axes.empty();
    const std::string axes = wave ? "xyz" : expected.axes;
    const long stride[3] = {1, long(layout.line), long(layout.slice)};
    const T* weights[3] = {c.x, c.y, c.z};
    long double worst = 0, largest = 0;
    int at[3] = {0, 0, 0};
    for (const int k : {box.z0, box.z1 - 1})
        for (int j = box.y0; j < box.y1; ++j)
            for (int i = box.x0; i < box.x1; ++i) {
                const long n =
                    long(layout.front) + long(layout.index(i, j, k)); // in the allocation
                long double ref = 0;
                for (const char a : axes) {
                    const int d = a - 'x';
                    ref += (long double)weights[d][0] * p[std::size_t(n)];
                    for (int r = 1; r <= R; ++r)
                        ref += (long double)weights[d][r] *
                               ((long double)p[std::size_t(n - r * stride[d])] +
                                p[std::size_t(n + r * stride[d])]);
                }
                if (wave)
                    ref = 2.0L * p[std::size_t(n)] - (*expected.prev)[std::size_t(n)] +
                          (long double)(*expected.vel)[std::size_t(n)] * ref;
                const long double error = std::fabs(ref - (long double)out[std::size_t(n)]);
                largest = std::fmax(largest, std::fabs(ref));
                if (!(error <= worst)) { // NaN counts as worst
                    worst = error;
                    at[0] = i, at[1] = j, at[2] = k;
                }
            }
    const long double tolerance = (sizeof(T) == 4 ? 1e-5L : 1e-12L) * std::fmax(largest, 1e-30L);
    if (worst <= tolerance) return {};
    char line[200];
    std::snprintf(line, sizeof line,
                  "cell (%d, %d, %d) is off the host reference by %.3Lg (largest reference "
                  "value %.3Lg)",
                  at[0], at[1], at[2], worst, largest);
    return line;
}

} // namespace stencil::bench
