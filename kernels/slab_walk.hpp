// The boundary slabs' walk: the wave update of a box thin along one axis
// (R cells of the shell that a rank with neighbours updates after its
// halos arrive), shaped for thin boxes rather than for the interior.
// Device code: included only by wave_kernels.cu.
//
// The interior's z-walking tile (fused_walk.hpp) stages R groups of x halo
// around every row of its tile in LDS. An x slab is one group wide, so that
// tile left 7 of 8 threads idle and its x apron cost more than the slab
// (docs/performance-history.md, "The thin-slab kernel"). Here a block is
// block_x groups by block_y rows with one row per thread, shaped per slab
// (slab_block): lanes along y for an x slab, the whole R rows of a y slab
// in one block, a wide plane for a z slab. Each thread walks its column's
// z window in registers as the interior does, but takes its x neighbours
// straight from memory (the same row's sectors, which its own load already
// brought into L1) and only its y neighbours from LDS, where the block
// stages its rows and R rows above and below them.
#pragma once

#include "face_sinks.hpp"
#include "fused_tile.hpp"
#include "gpu_launch.hpp"

namespace stencil::detail {

// LDS apron slots (the R rows above and below a block's rows) each thread
// stages per plane. slab_block keeps block_x <= kSlabThreads / R, so 2R rows
// of block_x groups never need more.
inline constexpr int kSlabApronPerThread = 2;

// The update of `box`'s tile (b.bx, b.by, b.bz). Threads with b.ty >= block_y
// only help stage the apron; every thread reaches every barrier. After the
// walk each thread copies the cells it updated into the face sinks that
// hold them (face_sinks.hpp).
template <int R, class T>
__device__ __forceinline__ void
slab_walk(FieldView<const T> p, FieldView<T> out, FieldView<const T> vel, const Box& box,
          const Coefficients<R, T>& c, const Sponge& sponge, XGroups groups, int window,
          const BlockPlace& b, const FaceSinks<T>& sinks) {
    using namespace device;
    constexpr int G = kHaloGroups<R, T>, L = kLanes<T>;
    const int bx = b.block_x, by = b.block_y;
    const int tid = int(threadIdx.x), threads = int(blockDim.x);
    const int i_block = groups.first + L * b.bx * bx, j_first = box.y0 + b.by * by;
    const int i = i_block + L * b.tx, j = j_first + b.ty;
    const int k_first = box.z0 + b.bz * window, k_last = min(k_first + window, box.z1);
    const long long slice = (long long)p.layout.slice;
    // A centre is loaded if it is an output or some output's y neighbour.
    const bool loads = b.ty < by && i < box.x1 && j < box.y1 + R;
    const bool stores = loads && j < box.y1;
    Vec<T>* tiles = device::dynamic_lds<T>(); // two buffers of (by + 2R) x bx groups
    const int tile_slots = (by + 2 * R) * bx;
    const int my_slot = (b.ty + R) * bx + b.tx;

    // Apron slot s: LDS row h < R above the block's rows, h >= R below them.
    int apron_lds[kSlabApronPerThread];
    const T* apron_in[kSlabApronPerThread];
#pragma unroll
    for (int n = 0; n < kSlabApronPerThread; ++n) {
        const int s = tid + n * threads, h = s / bx, column = s - h * bx;
        const int row = h < R ? h : h + by;
        const int apron_i = i_block + L * column, apron_j = j_first - R + row;
        const bool needed = s < 2 * R * bx && apron_i < box.x1 && apron_j < box.y1 + R;
        apron_lds[n] = needed ? row * bx + column : -1;
        apron_in[n] = p.origin + (needed ? p.layout.index(apron_i, apron_j, k_first) : 0);
    }

    const long long mine = (long long)p.layout.index(i, j, 0);
    const T* window_in = p.origin + mine + (k_first + R) * slice; // plane k+1+R, for k+1
    const T* x_in = p.origin + mine + k_first * slice;            // plane k+1's x groups
    const T* vel_in = vel.origin + mine + k_first * slice;
    T* target = out.origin + mine + k_first * slice; // plane k; p_prev too

    Vec<T> w[2 * R + 1] = {}; // planes k-R .. k+R of this thread's group
    Vec<T> w_next = {}, x_groups[2 * G] = {}, x_next[2 * G] = {}, apron_next[kSlabApronPerThread];
    Vec<T> prev_next = {}, vel_next = {};
    auto prefetch = [&](const T* prev_in) {
        if (loads) w_next = load_vec(window_in);
        if (stores) {
#pragma unroll
            for (int s = 0; s < 2 * G; ++s)
                x_next[s] = load_vec(x_in + L * (s < G ? s - G : s - G + 1));
            prev_next = load_vec(prev_in);
            vel_next = load_vec(vel_in);
        }
#pragma unroll
        for (int n = 0; n < kSlabApronPerThread; ++n) {
            if (apron_lds[n] >= 0) apron_next[n] = load_vec(apron_in[n]);
            apron_in[n] += slice;
        }
        window_in += slice;
        x_in += slice;
        vel_in += slice;
    };
    if (loads)
#pragma unroll
        for (int s = 0; s < 2 * R; ++s)
            w[s] = load_vec(window_in + (s - 2 * R) * slice);
    if (k_first < k_last) prefetch(target);

    for (int k = k_first, buffer = 0; k < k_last; ++k, buffer ^= 1) {
        Vec<T>* tile = tiles + buffer * tile_slots;
        w[2 * R] = w_next;
        const Vec<T> prev = prev_next, v = vel_next;
#pragma unroll
        for (int s = 0; s < 2 * G; ++s)
            x_groups[s] = x_next[s];
        if (loads) store_vec(tile[my_slot].v, w[R]);
#pragma unroll
        for (int n = 0; n < kSlabApronPerThread; ++n)
            if (apron_lds[n] >= 0) store_vec(tile[apron_lds[n]].v, apron_next[n]);
        if (k + 1 < k_last) prefetch(target + slice);
        __syncthreads();
        if (stores) {
            Vec<T> y[2 * R + 1];
#pragma unroll
            for (int s = 0; s < 2 * R + 1; ++s)
                y[s] = s == R ? w[R] : tile[my_slot + (s - R) * bx];
            const Vec<T> lap = laplacian_from<R, true>(
                [&](int s) { return s == G ? w[R] : x_groups[s < G ? s : s - 1]; }, y, w, c);
            Vec<T> next;
#pragma unroll
            for (int q = 0; q < L; ++q)
                next.v[q] = leapfrog(w[R].v[q], prev.v[q], v.v[q], lap.v[q],
                                     sponge.template eta<T>(i + q, j, k));
            store_vec_masked(target, i, box.x0, box.x1, next);
        }
        target += slice;
#pragma unroll
        for (int s = 0; s < 2 * R; ++s)
            w[s] = w[s + 1];
    }
    if (stores) sinks.copy(out, Box{max(i, box.x0), min(i + L, box.x1), j, j + 1, k_first, k_last});
}

} // namespace stencil::detail
