// Host implementations of every operator over an arbitrary Box.
//
// Two roles: in double they are the reference the GPU kernels are tested
// against; in float they are the HOST back-end's kernels, which run the whole
// distributed mini-app in CI. Templated on the radius and the precision,
// OpenMP-parallel over (k, j) rows, and built from cell_math.hpp so that the
// HOST back-end's interior and slab updates agree bit for bit.
#pragma once

#include "box.hpp"
#include "cell_math.hpp"
#include "coefficients.hpp"
#include "field.hpp"
#include "sponge.hpp"

#include <cstddef>

namespace stencil {

inline std::ptrdiff_t axis_stride(const Layout& layout, Axis axis) {
    switch (axis) {
    case Axis::X: return 1;
    case Axis::Y: return layout.line;
    default: return std::ptrdiff_t(layout.slice);
    }
}

// out = d^2 in / d(axis)^2 over `box`, with weights w[0..R] (already scaled by 1/h^2).
template <int R, class T>
void host_second_derivative(Axis axis, FieldView<const T> in, FieldView<T> out, const Box& box,
                            const T (&w)[R + 1]) {
    const std::ptrdiff_t s = axis_stride(in.layout, axis);
#pragma omp parallel for collapse(2) schedule(static)
    for (int k = box.z0; k < box.z1; ++k)
        for (int j = box.y0; j < box.y1; ++j) {
            const T* p = in.ptr(box.x0, j, k);
            T* q = out.ptr(box.x0, j, k);
            for (int i = 0; i < box.nx(); ++i) {
                T acc = w[0] * p[i];
                for (int r = 1; r <= R; ++r) acc = add_pair(acc, w[r], p[i - r * s], p[i + r * s]);
                q[i] = acc;
            }
        }
}

// The Laplacian at one cell, summed in the canonical order (cell_math.hpp).
template <int R, class T>
inline T host_laplacian_at(const T* p, std::ptrdiff_t line, std::ptrdiff_t slice,
                           const Coefficients<R, T>& c) {
    T acc = c.centre * p[0];
    for (int r = 1; r <= R; ++r) {
        acc = add_pair(acc, c.x[r], p[-r], p[r]);
        acc = add_pair(acc, c.y[r], p[-r * line], p[r * line]);
        acc = add_pair(acc, c.z[r], p[-r * slice], p[r * slice]);
    }
    return acc;
}

template <int R, class T>
void host_laplacian(FieldView<const T> in, FieldView<T> out, const Box& box,
                    const Coefficients<R, T>& c) {
    const std::ptrdiff_t line = in.layout.line, slice = std::ptrdiff_t(in.layout.slice);
#pragma omp parallel for collapse(2) schedule(static)
    for (int k = box.z0; k < box.z1; ++k)
        for (int j = box.y0; j < box.y1; ++j) {
            const T* p = in.ptr(box.x0, j, k);
            T* q = out.ptr(box.x0, j, k);
            for (int i = 0; i < box.nx(); ++i) q[i] = host_laplacian_at<R>(p + i, line, slice, c);
        }
}

// p_prev <- leapfrog(p, p_prev, vel, L(p)) over `box`, in place: each cell
// reads only its own p_prev, so overwriting it is safe.
template <int R, class T>
void host_wave_step(FieldView<const T> p, FieldView<T> p_prev, FieldView<const T> vel,
                    const Box& box, const Coefficients<R, T>& c, const Sponge& sponge) {
    const std::ptrdiff_t line = p.layout.line, slice = std::ptrdiff_t(p.layout.slice);
#pragma omp parallel for collapse(2) schedule(static)
    for (int k = box.z0; k < box.z1; ++k)
        for (int j = box.y0; j < box.y1; ++j) {
            const T* pc = p.ptr(box.x0, j, k);
            T* q = p_prev.ptr(box.x0, j, k);
            const T* v = vel.ptr(box.x0, j, k);
            for (int i = 0; i < box.nx(); ++i) {
                const T lap = host_laplacian_at<R>(pc + i, line, slice, c);
                const T eta = T(sponge.eta(box.x0 + i, j, k));
                q[i] = leapfrog(pc[i], q[i], v[i], lap, eta);
            }
        }
}

} // namespace stencil
