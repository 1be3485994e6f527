// The benchmark's device fields and its byte counts: what every kernel
// benchmark reads and writes, and the minimal bytes its bandwidth is
// reported against.
#pragma once

#include "bench_check.hpp"
#include "bench_options.hpp"
#include "field.hpp"
#include "layout.hpp"
#include "memory.hpp"

#include <memory>
#include <random>
#include <string>
#include <vector>

namespace stencil::bench {

// The fields of one (size, R) in precision T: input p, a second input, the
// velocity term, and an output. Kept across Google Benchmark's repeated
// calls of one benchmark and replaced when the next benchmark needs another
// shape.
template <class T>
struct Arrays {
    Layout layout;
    DeviceArray<T> p, prev, vel, out;
    explicit Arrays(const Layout& l)
        : layout(l), p(l.allocation()), prev(l.allocation()), vel(l.allocation()),
          out(l.allocation()) {
        // Random data, not zeros: zeros can run faster than real data.
        std::vector<T> host(l.allocation());
        std::mt19937 rng(42);
        std::uniform_real_distribution<T> dist(-1, 1);
        for (T& x : host)
            x = dist(rng);
        copy_to_device(p, host.data());
        copy_to_device(prev, host.data());
        copy_to_device(out, host.data());
        for (T& x : host)
            x = T(0.05) + T(0.05) * (x + 1); // stable dt^2 c^2 / h^2 values
        copy_to_device(vel, host.data());
    }
    FieldView<T> view(DeviceArray<T>& x) { return view_of(x.data(), layout); }
    // `x` on the host, widened to double (the copy's check).
    std::vector<double> host(const DeviceArray<T>& x) const {
        std::vector<T> h(layout.allocation());
        copy_to_host(h.data(), x);
        return std::vector<double>(h.begin(), h.end());
    }
    // What the reference check reads of `x` for `boxes`: their checked
    // planes grown by `reach` (bench_check.hpp), a plane's run at a time.
    HostPlanes planes(const DeviceArray<T>& x, const std::vector<Box>& boxes, int reach) const {
        HostPlanes host(layout);
        for (const Box& box : boxes)
            host.want(box, reach);
        std::vector<T> h;
        for (HostPlanes::Plane& plane : host.planes()) {
            if (plane.end == plane.first) continue;
            h.resize(plane.end - plane.first);
            copy(h.data(), x.data() + plane.first, h.size() * sizeof(T));
            plane.values.assign(h.begin(), h.end());
        }
        return host;
    }
    // Test aid (--inject-fault=wrong-result): the first cell of `box` in
    // `x` made wrong on the device, where the check must find it.
    void plant_wrong_cell(DeviceArray<T>& x, const Box& box) const {
        T* cell = x.data() + layout.front + layout.index(box.x0, box.y0, box.z0);
        T value;
        copy(&value, cell, sizeof value);
        value += T(1);
        copy(cell, &value, sizeof value);
    }
};

template <class T>
Arrays<T>& arrays_for(const Layout& layout) {
    static std::unique_ptr<Arrays<T>> current;
    const Layout& l = layout;
    if (!current || current->layout.nx != l.nx || current->layout.ny != l.ny ||
        current->layout.nz != l.nz || current->layout.halo != l.halo) {
        current.reset(); // free first: two 512^3 sets need not fit at once
        current = std::make_unique<Arrays<T>>(layout);
    }
    return *current;
}

// Minimal bytes (the articles' formula): every input cell read once, halo
// planes included for each differentiated direction, every output written once.
inline double derivative_bytes(const Size& s, int R, const std::string& axes, std::size_t element) {
    const double nx = s.nx, ny = s.ny, nz = s.nz;
    double read = nx * ny * nz;
    for (char a : axes)
        read += 2.0 * R * (a == 'x' ? ny * nz : a == 'y' ? nx * nz : nx * ny);
    return (read + nx * ny * nz) * double(element);
}

// The wave update reads p (with its halo), p_prev and the velocity term, and writes p_next.
inline double wave_bytes(const Size& s, int R, std::size_t element) {
    return derivative_bytes(s, R, "xyz", element) + 2.0 * s.nx * s.ny * s.nz * double(element);
}

// The Laplacian series' formula on its grid of N^3 points, boundary
// included: every point read once, the (N-2)^3 interior points written.
inline double series_bytes(const Size& s, std::size_t element) {
    return (double(s.nx) * s.ny * s.nz + double(s.nx - 2) * (s.ny - 2) * (s.nz - 2)) *
           double(element);
}

} // namespace stencil::bench
