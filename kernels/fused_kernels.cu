// The fused one-pass kernels: d2/dx2 + d2/dy2, the full Laplacian, and the
// wave update built on it. One source, compiled as HIP or CUDA.
//
// A block owns a tile of 4*block_x by block_y cells and walks `window` planes
// along z. Per plane it stages the tile with an R-wide ring (R rows above and
// below, whole 16-byte groups left and right) in LDS: x neighbours come from
// LDS into a register window of vectors, y neighbours from LDS columns, and
// z neighbours from a per-thread sliding window of 2R+1 planes in registers,
// which also supplies the tile's centre. Each input value is then read from
// memory about once; results leave with nontemporal stores.
#include "device_vec.hpp"
#include "gpu_launch.hpp"

namespace stencil::detail {
using device::load4;
using device::store4_masked;
using device::Vec4;
using device::XGroups;

namespace {

// Where a block sits: the first cell of its tile and the tile's LDS shape.
struct TilePlace {
    int i_block; // x index of the first cell of the block's first group
    int j_first; // y index of the block's first row
    int width;   // LDS slots (groups) per staged row: block_x + 2G
};

template <int R>
__device__ inline void load_slot(Vec4* tile, const TilePlace& t, int row, int slot,
                                 FieldView<const float> p, int k, const Box& box) {
    constexpr int G = device::kHaloGroups<R>;
    const int i = t.i_block + 4 * (slot - G);
    const int j = t.j_first - R + row;
    // Cells at or beyond x1+R / y1+R are no output's neighbour: skip them,
    // which also keeps partial tiles inside the allocation.
    if (i < box.x1 + R && j < box.y1 + R) tile[row * t.width + slot] = load4(p.ptr(i, j, k));
}

// Stages the ring around the tile of plane k: R full rows above and below,
// and G groups left and right of every centre row. Loops over slots, so any
// R works whatever the block's height.
template <int R>
__device__ inline void stage_ring(Vec4* tile, const TilePlace& t, FieldView<const float> p, int k,
                                  const Box& box) {
    constexpr int G = device::kHaloGroups<R>;
    const int bx = blockDim.x, by = blockDim.y;
    const int tid = threadIdx.y * bx + threadIdx.x, threads = bx * by;
    for (int s = tid; s < 2 * R * t.width; s += threads) {
        const int h = s / t.width, slot = s - h * t.width;
        load_slot<R>(tile, t, h < R ? h : h + by, slot, p, k, box);
    }
    for (int s = tid; s < by * 2 * G; s += threads) {
        const int r = s / (2 * G), e = s - r * (2 * G);
        load_slot<R>(tile, t, r + R, e < G ? e : e + bx, p, k, box);
    }
}

// The x and y terms from the staged tile, and the z terms from the window,
// summed in the canonical order of cell_math.hpp.
template <int R, bool WithZ>
__device__ inline Vec4 laplacian_from_tile(const Vec4* tile, int width, const Vec4 (&w)[2 * R + 1],
                                           const Coefficients<R, float>& c) {
    constexpr int G = device::kHaloGroups<R>;
    const int tx = threadIdx.x, ty = threadIdx.y;
    const Vec4* row = tile + (ty + R) * width + tx; // slots tx .. tx+2G; centre at tx+G
    float xr[4 * (2 * G + 1)];
#pragma unroll
    for (int s = 0; s < 2 * G + 1; ++s) {
        const Vec4 v = row[s];
#pragma unroll
        for (int q = 0; q < 4; ++q)
            xr[4 * s + q] = v.v[q];
    }
    const Vec4* column = row + G;
    Vec4 lap;
#pragma unroll
    for (int q = 0; q < 4; ++q) {
        const int centre = 4 * G + q;
        float acc = c.centre * xr[centre];
#pragma unroll
        for (int r = 1; r <= R; ++r) {
            acc = add_pair(acc, c.x[r], xr[centre - r], xr[centre + r]);
            acc = add_pair(acc, c.y[r], column[-r * width].v[q], column[r * width].v[q]);
            if (WithZ) acc = add_pair(acc, c.z[r], w[R - r].v[q], w[R + r].v[q]);
        }
        lap.v[q] = acc;
    }
    return lap;
}

template <int R>
__global__ void __launch_bounds__(256)
    fused_xy_kernel(FieldView<const float> in, FieldView<float> out, Box box,
                    Coefficients<R, float> c, XGroups groups) {
    constexpr int G = device::kHaloGroups<R>;
    extern __shared__ Vec4 tile[];
    const TilePlace t{groups.first + 4 * int(blockIdx.x * blockDim.x),
                      box.y0 + int(blockIdx.y * blockDim.y), int(blockDim.x) + 2 * G};
    const int i = t.i_block + 4 * int(threadIdx.x), j = t.j_first + int(threadIdx.y);
    const int k = box.z0 + int(blockIdx.z);

    stage_ring<R>(tile, t, in, k, box);
    Vec4 w[2 * R + 1]; // unused without z; kept so both variants share the arithmetic
    if (i < box.x1 + R && j < box.y1 + R)
        tile[(threadIdx.y + R) * t.width + threadIdx.x + G] = load4(in.ptr(i, j, k));
    __syncthreads();
    if (i >= box.x1 || j >= box.y1) return;
    store4_masked(out.ptr(i, j, k), i, box.x0, box.x1,
                  laplacian_from_tile<R, false>(tile, t.width, w, c));
}

// Ring slots a thread prefetches in registers; any further slots (only for
// wide, short blocks) are loaded synchronously, which is slower but correct.
constexpr int kRingPrefetch = 2;

// Wave = false: out = L(p). Wave = true: out is p_prev, updated in place.
//
// Software-pipelined over planes: while plane k is computed from one LDS
// buffer, the loads of plane k+1 (its ring, the window's next plane and, for
// the wave, p_prev and the velocity term) are already in flight into
// registers, and are written into the other buffer at the next iteration.
// Two buffers need one barrier per plane: a buffer is rewritten only after
// every thread has passed the barrier that followed its last read.
template <int R, bool Wave>
__global__ void __launch_bounds__(256)
    fused_kernel(FieldView<const float> p, FieldView<float> out, FieldView<const float> vel,
                 Box box, Coefficients<R, float> c, Sponge sponge, XGroups groups, int window) {
    constexpr int G = device::kHaloGroups<R>;
    extern __shared__ Vec4 tiles[]; // two buffers of (block_y + 2R) x (block_x + 2G) groups
    const int bx = blockDim.x, by = blockDim.y;
    const int tid = threadIdx.y * bx + threadIdx.x, threads = bx * by;
    const TilePlace t{groups.first + 4 * int(blockIdx.x * bx), box.y0 + int(blockIdx.y * by),
                      bx + 2 * G};
    const int tile_slots = (by + 2 * R) * t.width;
    const int ring_slots = 2 * R * t.width + by * 2 * G;
    const int i = t.i_block + 4 * int(threadIdx.x), j = t.j_first + int(threadIdx.y);
    const int k_first = box.z0 + int(blockIdx.z) * window;
    const int k_last = min(k_first + window, box.z1);
    const long long slice = (long long)p.layout.slice;
    // A thread loads its column if any output needs it (as centre or halo),
    // and stores if its group holds a cell of the box.
    const bool loads = i < box.x1 + R && j < box.y1 + R;
    const bool stores = i < box.x1 && j < box.y1;
    const long long my_offset = (long long)p.layout.index(i, j, 0);
    const int centre_slot = (threadIdx.y + R) * t.width + threadIdx.x + G;

    // Ring slot n of this thread: its LDS index and plane offset, or -1 when
    // it does not exist or no output needs it. The same for every plane.
    struct RingPlace {
        int lds;          // -1: no such slot, or no output needs it
        long long offset; // in the plane
    };
    auto ring_place = [&](int s) -> RingPlace {
        if (s >= ring_slots) return {-1, 0};
        int row, slot;
        if (s < 2 * R * t.width) {
            const int h = s / t.width;
            slot = s - h * t.width;
            row = h < R ? h : h + by;
        } else {
            const int e = s - 2 * R * t.width, r = e / (2 * G), q = e - r * (2 * G);
            row = r + R;
            slot = q < G ? q : q + bx;
        }
        const int gi = t.i_block + 4 * (slot - G), gj = t.j_first - R + row;
        if (gi >= box.x1 + R || gj >= box.y1 + R) return {-1, 0};
        return {row * t.width + slot, (long long)p.layout.index(gi, gj, 0)};
    };
    int ring_lds[kRingPrefetch];
    long long ring_offset[kRingPrefetch];
#pragma unroll
    for (int n = 0; n < kRingPrefetch; ++n) {
        const RingPlace place = ring_place(tid + n * threads);
        ring_lds[n] = place.lds;
        ring_offset[n] = place.offset;
    }

    Vec4 w[2 * R + 1] = {}; // planes k-R .. k+R of this thread's column
    Vec4 w_next = {}, ring_next[kRingPrefetch], prev_next = {}, vel_next = {};
    auto prefetch = [&](int k) { // the loads plane k needs, into registers
        if (loads) w_next = load4(p.origin + my_offset + (k + R) * slice);
#pragma unroll
        for (int n = 0; n < kRingPrefetch; ++n)
            if (ring_lds[n] >= 0) ring_next[n] = load4(p.origin + ring_offset[n] + k * slice);
        if (Wave && stores) {
            prev_next = load4(out.origin + my_offset + k * slice);
            vel_next = load4(vel.origin + my_offset + k * slice);
        }
    };
    if (loads)
#pragma unroll
        for (int s = 0; s < 2 * R; ++s)
            w[s] = load4(p.origin + my_offset + (k_first + s - R) * slice);
    if (k_first < k_last) prefetch(k_first);

    for (int k = k_first, buffer = 0; k < k_last; ++k, buffer ^= 1) {
        Vec4* tile = tiles + buffer * tile_slots;
        w[2 * R] = w_next;
        const Vec4 prev = prev_next, v = vel_next;
        tile[centre_slot] = w[R];
#pragma unroll
        for (int n = 0; n < kRingPrefetch; ++n)
            if (ring_lds[n] >= 0) tile[ring_lds[n]] = ring_next[n];
        for (int s = tid + kRingPrefetch * threads; s < ring_slots; s += threads) {
            const RingPlace place = ring_place(s);
            if (place.lds >= 0) tile[place.lds] = load4(p.origin + place.offset + k * slice);
        }
        if (k + 1 < k_last) prefetch(k + 1);
        __syncthreads();
        if (stores) {
            const Vec4 lap = laplacian_from_tile<R, true>(tile, t.width, w, c);
            float* target = out.origin + my_offset + k * slice;
            if (Wave) {
                Vec4 next;
#pragma unroll
                for (int q = 0; q < 4; ++q)
                    next.v[q] =
                        leapfrog(w[R].v[q], prev.v[q], v.v[q], lap.v[q], sponge.eta(i + q, j, k));
                store4_masked(target, i, box.x0, box.x1, next);
            } else {
                store4_masked(target, i, box.x0, box.x1, lap);
            }
        }
#pragma unroll
        for (int s = 0; s < 2 * R; ++s)
            w[s] = w[s + 1];
    }
}

template <int R>
std::size_t tile_bytes(const Tuning& t) {
    return std::size_t(t.block_y + 2 * R) * std::size_t(t.block_x + 2 * device::kHaloGroups<R>) *
           sizeof(Vec4);
}

template <int R, bool Wave>
void launch_fused(FieldView<const float> p, FieldView<float> out, FieldView<const float> vel,
                  const Box& box, const Coefficients<R, float>& c, const Sponge& sponge,
                  Stream& stream, const Tuning& requested) {
    if (box.empty()) return;
    const Tuning t = resolve_tuning(requested, R);
    const GroupLaunch g(p.layout, box, t, t.window);
    fused_kernel<R, Wave><<<g.grid, g.block, 2 * tile_bytes<R>(t), stream.handle()>>>(
        p, out, vel, box, c, sponge, g.groups, t.window);
    GPU_CHECK_LAUNCH();
}

} // namespace

template <int R>
void launch_fused_xy(FieldView<const float> in, FieldView<float> out, const Box& box,
                     const Coefficients<R, float>& c, Stream& stream, const Tuning& requested) {
    if (box.empty()) return;
    const Tuning t = resolve_tuning(requested, R);
    Coefficients<R, float> xy = c;
    xy.centre = c.x[0] + c.y[0];
    const GroupLaunch g(in.layout, box, t, 1);
    fused_xy_kernel<R>
        <<<g.grid, g.block, tile_bytes<R>(t), stream.handle()>>>(in, out, box, xy, g.groups);
    GPU_CHECK_LAUNCH();
}

template <int R>
void launch_fused_laplacian(FieldView<const float> in, FieldView<float> out, const Box& box,
                            const Coefficients<R, float>& c, Stream& stream, const Tuning& t) {
    launch_fused<R, false>(in, out, in, box, c, Sponge{}, stream, t);
}

} // namespace stencil::detail

namespace stencil {

template <int R>
void launch_wave_step(FieldView<const float> p, FieldView<float> p_prev, FieldView<const float> vel,
                      const Box& box, const Coefficients<R, float>& c, const Sponge& sponge,
                      Stream& stream, const Tuning& tuning) {
    detail::launch_fused<R, true>(p, p_prev, vel, box, c, sponge, stream, tuning);
}

#define STENCIL_INSTANTIATE_FUSED(R)                                                               \
    template void detail::launch_fused_xy<R>(FieldView<const float>, FieldView<float>, const Box&, \
                                             const Coefficients<R, float>&, Stream&,               \
                                             const Tuning&);                                       \
    template void detail::launch_fused_laplacian<R>(FieldView<const float>, FieldView<float>,      \
                                                    const Box&, const Coefficients<R, float>&,     \
                                                    Stream&, const Tuning&);                       \
    template void launch_wave_step<R>(                                                             \
        FieldView<const float>, FieldView<float>, FieldView<const float>, const Box&,              \
        const Coefficients<R, float>&, const Sponge&, Stream&, const Tuning&);
STENCIL_INSTANTIATE_FUSED(1)
STENCIL_INSTANTIATE_FUSED(2)
STENCIL_INSTANTIATE_FUSED(3)
STENCIL_INSTANTIATE_FUSED(4)
STENCIL_INSTANTIATE_FUSED(5)
STENCIL_INSTANTIATE_FUSED(6)
STENCIL_INSTANTIATE_FUSED(7)
STENCIL_INSTANTIATE_FUSED(8)

} // namespace stencil
