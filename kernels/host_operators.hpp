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

#include <array>
#include <cstddef>

namespace stencil {

inline std::ptrdiff_t axis_stride(const Layout& layout, Axis axis) {
    switch (axis) {
    case Axis::X:
        return 1;
    case Axis::Y:
        return layout.line;
    default:
        return std::ptrdiff_t(layout.slice);
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
                for (int r = 1; r <= R; ++r)
                    acc = add_pair(acc, w[r], p[i - r * s], p[i + r * s]);
                q[i] = acc;
            }
        }
}

// The Laplacian of cells p[0..n) of one row into acc[0..n), in the canonical
// order (cell_math.hpp): centre, then for r = 1..R the x, y and z pairs.
// The r loop is outermost so that the i loops vectorise; the order of the
// additions for each cell is unchanged by that.
template <int R, class T>
inline void host_laplacian_row(const T* p, int n, std::ptrdiff_t line, std::ptrdiff_t slice,
                               const Coefficients<R, T>& c, T* acc) {
    for (int i = 0; i < n; ++i)
        acc[i] = c.centre * p[i];
    for (int r = 1; r <= R; ++r) {
        const T* west = p - r;
        const T* east = p + r;
        const T* south = p - r * line;
        const T* north = p + r * line;
        const T* below = p - r * slice;
        const T* above = p + r * slice;
        for (int i = 0; i < n; ++i) {
            T a = add_pair(acc[i], c.x[r], west[i], east[i]);
            a = add_pair(a, c.y[r], south[i], north[i]);
            acc[i] = add_pair(a, c.z[r], below[i], above[i]);
        }
    }
}

// Rows are processed in chunks of this many cells, accumulated on the stack.
inline constexpr int kHostChunk = 256;

// Calls f(i0, j, k, n, lap) for every chunk of n <= kHostChunk cells starting
// at (i0, j, k) in `box`, with lap[0..n) the Laplacian of `p` there;
// OpenMP-parallel over rows.
template <int R, class T, class F>
void for_each_laplacian_chunk(FieldView<const T> p, const Box& box, const Coefficients<R, T>& c,
                              F&& f) {
    const std::ptrdiff_t line = p.layout.line, slice = std::ptrdiff_t(p.layout.slice);
#pragma omp parallel for collapse(2) schedule(static)
    for (int k = box.z0; k < box.z1; ++k)
        for (int j = box.y0; j < box.y1; ++j)
            for (int i0 = box.x0; i0 < box.x1; i0 += kHostChunk) {
                const int n = box.x1 - i0 < kHostChunk ? box.x1 - i0 : kHostChunk;
                T lap[kHostChunk];
                host_laplacian_row<R>(p.ptr(i0, j, k), n, line, slice, c, lap);
                f(i0, j, k, n, lap);
            }
}

template <int R, class T>
void host_laplacian(FieldView<const T> in, FieldView<T> out, const Box& box,
                    const Coefficients<R, T>& c) {
    for_each_laplacian_chunk<R>(in, box, c, [&](int i0, int j, int k, int n, const T* lap) {
        T* q = out.ptr(i0, j, k);
        for (int i = 0; i < n; ++i)
            q[i] = lap[i];
    });
}

// p_prev <- leapfrog(p, p_prev, vel, L(p)) over `box`, in place: each cell
// reads only its own p_prev, so overwriting it is safe.
template <int R, class T>
void host_wave_step(FieldView<const T> p, FieldView<T> p_prev, FieldView<const T> vel,
                    const Box& box, const Coefficients<R, T>& c, const Sponge& sponge) {
    for_each_laplacian_chunk<R>(p, box, c, [&](int i0, int j, int k, int n, const T* lap) {
        const T* pc = p.ptr(i0, j, k);
        const T* v = vel.ptr(i0, j, k);
        T* q = p_prev.ptr(i0, j, k);
        // Without a sponge eta is 0 anyway; the separate loop is there because
        // it vectorises (a per-cell eta() call does not): 1.2x on the HOST wave.
        if (sponge.width == 0) {
            for (int i = 0; i < n; ++i)
                q[i] = leapfrog(pc[i], q[i], v[i], lap[i], T(0));
        } else {
            for (int i = 0; i < n; ++i)
                q[i] = leapfrog(pc[i], q[i], v[i], lap[i], sponge.eta<T>(i0 + i, j, k));
        }
    });
}

// Fills the R-wide halo of `f` along each axis marked in `periodic` with the
// interior cells it wraps to (the cell past the last plane is the first),
// over the interior extent of the other two axes: the cells a star stencil
// reads. The reference for --periodic, which the mini-app gets from its
// halo exchange instead (a rank alone along an axis is its own neighbour).
template <class T>
void host_wrap_halo(FieldView<T> f, const std::array<bool, 3>& periodic) {
    const Layout& L = f.layout;
    const int R = L.halo, n[3] = {L.nx, L.ny, L.nz};
    const Box in = L.interior();
    for (int a = 0; a < 3; ++a) {
        if (!periodic[a]) continue;
        for (int k = in.z0; k < in.z1; ++k)
            for (int j = in.y0; j < in.y1; ++j)
                for (int i = in.x0; i < in.x1; ++i) {
                    const int cell[3] = {i, j, k}, pos = cell[a] - R; // 0 .. n-1 along a
                    int halo[3] = {i, j, k};
                    if (pos < R) { // the first R planes wrap into the high halo
                        halo[a] = R + n[a] + pos;
                        f(halo[0], halo[1], halo[2]) = f(i, j, k);
                    }
                    if (pos >= n[a] - R) { // the last R planes into the low halo
                        halo[a] = pos - n[a] + R;
                        f(halo[0], halo[1], halo[2]) = f(i, j, k);
                    }
                }
    }
}

} // namespace stencil
