// The benchmark checks its own results, once per benchmark, after timing:
// the output of the last launch against a host reference computed another
// way, cell by cell in long double straight from the weights, on the first
// and last planes of the box (every x and y of the box, and both z ends,
// where a halo or window bug shows first). A wrong kernel then cannot post
// a fast time unnoticed. Only those planes and their R-neighbourhood come
// back from the device (HostPlanes), so a check costs in proportion to the
// box's x-y extent, not to the whole field: a thin shell slab of a 512^3
// grid reads back a few planes, not four whole fields.
#pragma once

#include "coefficients.hpp"
#include "layout.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace stencil::bench {

// The z planes of `box` that the check samples: its first and last.
inline std::array<int, 2> checked_planes(const Box& box) {
    return {box.z0, box.z1 - 1};
}

// Part of a field on the host, widened to double: on some z planes one
// contiguous run of elements each, addressed like the whole allocation
// (n = front + index(i, j, k)). Arrays::read fills it from the device.
class HostPlanes {
public:
    struct Plane {
        std::size_t first = 0, end = 0; // allocation indices [first, end)
        std::vector<double> values;
    };

    explicit HostPlanes(const Layout& layout)
        : layout_(layout), planes_(std::size_t(layout.pz())) {}

    // Asks for the cells of `box` on its checked planes, grown by `reach`
    // cells on every side (R for the stencil's input, 0 for the rest).
    void want(const Box& box, int reach) {
        const Box all = layout_.padded();
        const int x0 = std::max(box.x0 - reach, all.x0), x1 = std::min(box.x1 + reach, all.x1);
        const int y0 = std::max(box.y0 - reach, all.y0), y1 = std::min(box.y1 + reach, all.y1);
        for (const int k : checked_planes(box))
            for (int z = std::max(k - reach, all.z0); z < std::min(k + reach + 1, all.z1); ++z) {
                Plane& plane = planes_[std::size_t(z)];
                const std::size_t first = layout_.front + layout_.index(x0, y0, z);
                const std::size_t end = layout_.front + layout_.index(x1 - 1, y1 - 1, z) + 1;
                const bool empty = plane.end == plane.first;
                plane.first = empty ? first : std::min(plane.first, first);
                plane.end = empty ? end : std::max(plane.end, end);
            }
    }

    std::vector<Plane>& planes() { return planes_; }
    double operator[](std::size_t n) const {
        const Plane& plane = planes_[plane_of(n)];
        return plane.values[n - plane.first];
    }

private:
    // The plane holding element n, which must have been asked for: a check
    // that reads outside what it asked for is a bug in the check.
    std::size_t plane_of(std::size_t n) const {
        const std::size_t z = (n - std::size_t(layout_.front)) / layout_.slice;
        if (n < std::size_t(layout_.front) || z >= planes_.size() || n < planes_[z].first ||
            n >= planes_[z].first + planes_[z].values.size())
            throw std::logic_error("stencil-bench: the check read a cell it did not read back");
        return z;
    }

    Layout layout_;
    std::vector<Plane> planes_; // by z; first == end where not asked for
};

// What the output should hold: the derivatives named by `axes` ("x", "xy",
// "xyz", ...) of p, or, for the wave update (axes empty), the undamped
// leapfrog 2p - prev + vel * L(p).
struct Expected {
    std::string axes;
    const HostPlanes* prev = nullptr; // wave only: p_prev before the launch
    const HostPlanes* vel = nullptr;  // wave only
};

// Empty when every sampled cell of `out` is within a relative 1e-5 (FP32)
// or 1e-12 (FP64) of the reference, scaled by the largest reference value;
// else one line naming the worst cell. `p` holds the box's checked planes
// grown by R (want(box, R)), `out` and the wave's prev and vel its checked
// planes (want(box, 0)).
template <int R, class T>
std::string check_against_host(const Layout& layout, const Box& box, const Coefficients<R, T>& c,
                               const HostPlanes& p, const HostPlanes& out,
                               const Expected& expected) {
    const bool wave = expected.axes.empty();
    const std::string axes = wave ? "xyz" : expected.axes;
    const long stride[3] = {1, long(layout.line), long(layout.slice)};
    const T* weights[3] = {c.x, c.y, c.z};
    long double worst = 0, largest = 0;
    int at[3] = {0, 0, 0};
    for (const int k : checked_planes(box))
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
