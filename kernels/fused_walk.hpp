// The z-walking fused kernel body shared by the Laplacian and the wave
// update (fused_kernels.cu, wave_kernels.cu, stored_wave_kernels.cu): the
// per-block walk over a tile's planes. The one-box kernels around it and
// their launcher are in fused_launch.hpp. Device code: included only by
// .cu files.
//
// A block owns a tile of block_x 16-byte groups (4 floats or 2 doubles each)
// by block_y * rows rows and walks `window` planes along z. Per plane it
// stages the tile with an R-wide apron (R rows above and below its columns,
// whole 16-byte groups left and right) in LDS: x neighbours from LDS into a
// register window of vectors, y neighbours from LDS columns, and z
// neighbours from a per-thread sliding window of 2R+1 planes in registers,
// which also supplies the tile's centre. Each input value is then read from
// memory about once; results leave with nontemporal stores.
#pragma once

#include "face_sinks.hpp"
#include "fused_tile.hpp"
#include "gpu_launch.hpp"
#include "source.hpp"

#include <climits>
#include <type_traits>

// A per-kernel register budget. CUDA only: HIP's occupancy works in waves
// per SIMD and is left to the compiler.
#if defined(STENCIL_BACKEND_CUDA)
#define STENCIL_MAX_REGISTERS(n) __maxnreg__(n)
#else
#define STENCIL_MAX_REGISTERS(n)
#endif

namespace stencil::detail {

// Registers per thread of the fused kernels. With two rows per thread the
// FP32 Laplacian fits in 168 without spilling, so three 128-thread blocks
// share an SM instead of two; the wave update needs about 220 and spills
// under that cap. Every other instantiation is left to the compiler
// (docs/performance-history.md, "The fused kernels' register cap").
template <int R, class T, bool Wave, int Rows>
[[maybe_unused]] constexpr int kRegisterCap =
    !Wave && Rows == 2 && R <= 4 && std::is_same_v<T, float> ? 168 : 255;

// How a walk stores the face cells it computes into the sinks
// (face_sinks.hpp): not at all (the Laplacian); each group as it is
// computed where the sinks are direct, else read back after the walk (the
// one-box wave kernel); or the thread's cells read back once its walk is
// done (the slabs' table kernel, whose registers the store in the walk
// exceeded on ROCm 6.4).
enum class SinkStores { None, InWalk, AfterWalk };

// In a launch that adds the source (source.hpp), its first thread advances
// the step count: the step reads one word and writes the other.
template <class T>
__device__ __forceinline__ void count_source_step(SourceInLaunch<T> source) {
    if (source && (blockIdx.x | blockIdx.y | blockIdx.z | threadIdx.x | threadIdx.y) == 0 &&
        source.table->steps_out)
        *source.table->steps_out = *source.table->steps_in + 1;
}

// The source of a walk that adds none (the slabs' tables, two planes
// ahead): no code at all, not a null table. A SourceInLaunch argument,
// even an empty one, left ROCm 6.4's wave_table_kernel<8, double, 1, true>
// at its 104 SGPRs with 36 bytes of scratch.
struct NoSourceInWalk {};

// Where a block and its thread sit: the block's shape, the thread within
// it, and the block's tile along x, y and z. The one-box kernel reads them
// from the launch; the table kernel from its table.
struct BlockPlace {
    int block_x, block_y; // threads
    int tx, ty;           // this thread
    int bx, by, bz;       // this block's tile
};

// Wave = false: out = L(p). Wave = true: out is p_prev, updated in place.
// Sinks: whether and how each thread also stores the cells it updated into
// the face sinks that hold them (SinkStores). `source`, in the wave update:
// the source's images the update adds to the cells it stored, after the
// walk (source.hpp).
//
// Each thread owns Rows consecutive rows of one vector group, so a block's
// tile is block_x groups by Rows*block_y rows (Rows: LaunchShape::rows). The
// rows share their y column in registers, so each y neighbour read from LDS
// serves up to Rows cells, at the price of Rows z windows in registers.
//
// Software-pipelined over planes: while plane k is computed from one LDS
// buffer, the loads of the next Ahead planes (each plane's apron, the
// window's incoming plane and, for the wave, p_prev and the velocity term)
// are already in flight into registers, and each is written into the other
// buffer when its plane comes. Two buffers need one barrier per plane: a
// buffer is rewritten only after every thread has passed the barrier that
// followed its last read. Ahead = 2 keeps twice the bytes in flight, which
// the fastest memories need (Little's law), for one more plane of loads in
// registers; the walk is unrolled by Ahead so that each plane's loads stay
// in registers of their own until used: a register copy of a load still in
// flight would wait for it.
template <int R, class T, bool Wave, int Rows, bool SyncApron, SinkStores Sinks = SinkStores::None,
          int Ahead = 1, class Source = NoSourceInWalk>
__device__ __forceinline__ void
fused_walk(FieldView<const T> p, FieldView<T> out, FieldView<const T> vel, const Box& box,
           const Coefficients<R, T>& c, const Sponge& sponge, XGroups groups, int window,
           const BlockPlace& b, const FaceSinks<T>* sinks = nullptr, Source source = {}) {
    using namespace device;
    constexpr int G = kHaloGroups<R, T>, L = kLanes<T>;
    Vec<T>* tiles = device::dynamic_lds<T>(); // two buffers of (tile_rows + 2R) x (block_x + 2G)
    const int bx = b.block_x, tile_rows = Rows * b.block_y;
    const int tid = b.ty * bx + b.tx, threads = bx * b.block_y;
    const TilePlace t{groups.first + L * b.bx * bx, box.y0 + b.by * tile_rows, bx + 2 * G};
    const int tile_slots = (tile_rows + 2 * R) * t.width;
    const int apron_slots = device::apron_slots<R, T>(bx, tile_rows);
    const int i = t.i_block + L * b.tx, j0 = t.j_first + Rows * b.ty;
    const int k_first = box.z0 + b.bz * window;
    const int k_last = min(k_first + window, box.z1);
    const long long slice = (long long)p.layout.slice;
    const int line = p.layout.line;
    // A row is loaded if any output needs it (as centre or halo), and stored
    // if its group holds a cell of the box.
    const bool x_loads = i < box.x1 + R, x_stores = i < box.x1;
    const long long my_offset = (long long)p.layout.index(i, j0, 0);
    const int my_row = (Rows * b.ty + R) * t.width + b.tx; // slot tx of row j0

    // Apron slot s of the tile: its LDS index and the offset of its group from
    // this thread's cell (i, j0) in the same plane, or lds = -1 when it does
    // not exist or no output needs it (at or beyond x1+R or y1+R). Relative
    // to the thread, so few uniform values stay live where the SyncApron loop
    // calls it every plane (gfx90a runs short of scalar registers at R = 8).
    struct ApronPlace {
        int lds;          // -1: no such slot, or no output needs it
        long long offset; // from (i, j0) in the plane
    };
    const int apron_x_limit = box.x1 + R - t.i_block + L * G; // needed while L * column < this
    const int apron_y_limit = box.y1 + 2 * R - t.j_first;     // and row < this
    const long long apron_corner = (t.i_block - L * G - i) + (long long)(t.j_first - R - j0) * line;
    auto apron_place = [&](int s) -> ApronPlace {
        if (s >= apron_slots) return {-1, 0};
        const ApronSlot rs = apron_slot<R, T>(s, bx, tile_rows);
        if (L * rs.column >= apron_x_limit || rs.row >= apron_y_limit) return {-1, 0};
        return {rs.row * t.width + rs.column, apron_corner + L * rs.column + rs.row * line};
    };
    constexpr int Prefetch = SyncApron ? 0 : kApronPrefetch;
    int apron_lds[kApronPrefetch];
    long long apron_offset[kApronPrefetch];
#pragma unroll
    for (int n = 0; n < Prefetch; ++n) {
        const ApronPlace place = apron_place(tid + n * threads);
        apron_lds[n] = place.lds;
        apron_offset[n] = place.offset;
    }

    // Pointers to plane k+1 of what prefetch() reads (the window's incoming
    // plane is k+1+R), moved one slice per plane instead of recomputed.
    const T* window_in = p.origin + my_offset + (k_first + R) * slice;
    const T* vel_in = vel.origin + my_offset + k_first * slice;
    T* target = out.origin + my_offset + k_first * slice;     // plane k; p_prev too
    const T* p_mine = p.origin + my_offset + k_first * slice; // (i, j0, k) of p
    const T* apron_in[kApronPrefetch];
#pragma unroll
    for (int n = 0; n < Prefetch; ++n)
        apron_in[n] = p_mine + apron_offset[n];
    // Whether the sponge can damp a cell of this block's tile along x or y;
    // per plane, z is asked too. Where it cannot, the block takes eta = 0
    // without computing it per cell, which gives the same bits
    // (Sponge::reaches). The choice is the block's, so no warp runs both
    // paths. Two planes ahead keep the per-cell eta: at R = 4 they use 255
    // registers, and a second path spilled there.
    const bool tile_damped =
        Wave && (Ahead == 2 || sponge.template reaches<0>(t.i_block, t.i_block + L * bx) ||
                 sponge.template reaches<1>(t.j_first, t.j_first + tile_rows));
    bool row_loads[Rows], row_stores[Rows];
#pragma unroll
    for (int m = 0; m < Rows; ++m) {
        row_loads[m] = x_loads && j0 + m < box.y1 + R;
        row_stores[m] = x_stores && j0 + m < box.y1;
    }
    // In-walk sink stores (SinkStores::InWalk), where every sink is a face
    // laid out as the field (FaceSinks::direct; otherwise the thread's cells
    // are copied after the walk). `faces` says, in one register, which lanes
    // of this thread's group lie in an x face and which sink that is, and
    // which of its rows lie in a y face; planes of z faces lie outside
    // [sink_z0, sink_z1). Every value held all walk is a register: R = 2 at
    // four rows spilled with five more.
    constexpr int kDirect = 1 << 30, kRowBits = 8, kBoxLanes = 24;
    [[maybe_unused]] int faces = 0, sink_z0 = INT_MIN, sink_z1 = INT_MAX;
    if constexpr (Sinks == SinkStores::InWalk) {
        if (sinks && sinks->direct) {
            const Box skip = sinks->skip;
            sink_z0 = skip.z0, sink_z1 = skip.z1;
            faces = kDirect;
            for (int x_side = 0; x_side < 2; ++x_side) {
                const int s = sinks->side[x_side];
                if (s < 0) continue;
                const int lo = max(max(i, box.x0), sinks->box[s].x0);
                const int hi = min(min(i + L, box.x1), sinks->box[s].x1);
                int lanes = 0;
                for (int q = 0; q < L; ++q)
                    lanes |= (i + q >= lo && i + q < hi) << q;
                if (lanes) faces |= lanes | (s + 1) << 4;
            }
            for (int m = 0; m < Rows; ++m)
                faces |= (j0 + m < skip.y0 ? 1 : j0 + m >= skip.y1 ? 2 : 0) << (kRowBits + 2 * m);
            for (int q = 0; q < L; ++q) // the group's lanes in the box, for y and z faces
                faces |= (i + q >= box.x0 && i + q < box.x1) << (kBoxLanes + q);
        }
    }

    static_assert(Ahead == 1 || Ahead == 2, "the walk keeps one or two planes of loads in flight");
    Vec<T> w[Rows][2 * R + 1] = {}; // planes k-R .. k+R of each of this thread's rows
    // The loads asked for ahead of each plane's turn, by slot (the walk's
    // planes take slots in turn): per row the window's incoming plane, and
    // for the wave update p_prev and the velocity term, then the thread's
    // apron slots (left unset: only slots that exist are loaded and stored).
    Vec<T> window_next[Ahead][Rows] = {}, apron_next[Ahead][kApronPrefetch],
           prev_next[Ahead][Rows] = {}, vel_next[Ahead][Rows] = {};
    // The loads of the next plane not yet asked for, into slot a: those the
    // tile stages (the window's incoming plane and the apron) and those the
    // wave's update reads (p_prev, at `prev_in`, and the velocity term).
    // Planes are asked for in order, so the running pointers move one slice
    // a call.
    auto prefetch = [&](int a, const T* prev_in) {
#pragma unroll
        for (int m = 0; m < Rows; ++m) {
            if (row_loads[m]) window_next[a][m] = load_vec(window_in + m * line);
            if (Wave && row_stores[m]) {
                prev_next[a][m] = load_vec(prev_in + m * line);
                vel_next[a][m] = load_vec(vel_in + m * line);
            }
        }
#pragma unroll
        for (int n = 0; n < Prefetch; ++n) {
            if (apron_lds[n] >= 0) apron_next[a][n] = load_vec(apron_in[n]);
            apron_in[n] += slice;
        }
        window_in += slice;
        vel_in += slice;
    };
#pragma unroll
    for (int m = 0; m < Rows; ++m)
        if (row_loads[m])
#pragma unroll
            for (int s = 0; s < 2 * R; ++s)
                w[m][s] = load_vec(window_in + m * line + (s - 2 * R) * slice);
#pragma unroll
    for (int a = 0; a < Ahead; ++a)
        if (k_first + a < k_last) prefetch(a, target + a * slice);

    // Unrolled by Ahead: the a-th plane of each group of Ahead planes takes
    // its loads from slot a.
    for (int k = k_first, buffer = 0; k < k_last;) {
#pragma unroll
        for (int a = 0; a < Ahead; ++a, ++k, buffer ^= 1) {
            if (a > 0 && k >= k_last) break;
            Vec<T>* tile = tiles + buffer * tile_slots;
            // p_prev and the velocity term are copied out of their slot, so
            // that plane k + Ahead's can be asked for before the barrier with
            // the window's. Reading them in place and asking for the next
            // after the update saves a set of registers, but ran 4 to 12
            // points of the copy slower than one plane on an H200 (this
            // order: 0 to 8; docs/data/planes-ahead-h200-2026-12-01).
            Vec<T> prev[Rows], v[Rows];
#pragma unroll
            for (int m = 0; m < Rows; ++m) {
                w[m][2 * R] = window_next[a][m];
                prev[m] = prev_next[a][m];
                v[m] = vel_next[a][m];
                // A 16-byte store, not a struct copy: hipcc 7 (ROCm 6.4) kept
                // w[m][R] in 32 bytes of scratch for the copy's memcpy.
                store_vec(tile[my_row + m * t.width + G].v, w[m][R]);
            }
#pragma unroll
            for (int n = 0; n < Prefetch; ++n)
                if (apron_lds[n] >= 0) store_vec(tile[apron_lds[n]].v, apron_next[a][n]);
            if (SyncApron) {
                for (int s = tid; s < apron_slots; s += threads) {
                    const ApronPlace place = apron_place(s);
                    if (place.lds >= 0) tile[place.lds] = load_vec(p_mine + place.offset);
                }
            }
            if (k + Ahead < k_last) prefetch(a, target + Ahead * slice);
            __syncthreads();
            if (x_stores) {
                const bool damped = tile_damped || (Wave && sponge.template reaches<2>(k, k + 1));
                // The y column of all Rows rows: R rows above from LDS, the
                // thread's own rows from the windows, R rows below from LDS.
                const Vec<T>* row0 = tile + my_row;
                Vec<T> column[Rows + 2 * R];
#pragma unroll
                for (int m = 0; m < Rows + 2 * R; ++m)
                    column[m] =
                        (m >= R && m < R + Rows) ? w[m - R][R] : row0[(m - R) * t.width + G];
#pragma unroll
                for (int m = 0; m < Rows; ++m) {
                    const int j = j0 + m;
                    // Rows past y1. With two rows, `break`: hipcc warns that it
                    // cannot unroll the loop as asked, but does so later (no
                    // scratch), and `continue` costs 10 more VGPRs at R = 4 on
                    // gfx90a. With four or eight, hipcc leaves the `break` loop
                    // rolled and indexes `column` in scratch, so they `continue`.
                    if (j >= box.y1) {
                        if (Rows <= 2) break;
                        continue;
                    }
                    Vec<T> y[2 * R + 1];
#pragma unroll
                    for (int s = 0; s < 2 * R + 1; ++s)
                        y[s] = column[m + s];
                    const Vec<T> lap = laplacian_of<R, true>(row0 + m * t.width, y, w[m], c);
                    if (Wave) {
                        Vec<T> next;
                        if (damped) {
#pragma unroll
                            for (int q = 0; q < L; ++q)
                                next.v[q] = leapfrog(w[m][R].v[q], prev[m].v[q], v[m].v[q],
                                                     lap.v[q], sponge.template eta<T>(i + q, j, k));
                        } else {
#pragma unroll
                            for (int q = 0; q < L; ++q)
                                next.v[q] =
                                    leapfrog(w[m][R].v[q], prev[m].v[q], v[m].v[q], lap.v[q], T(0));
                        }
                        store_vec_masked(target + m * line, i, box.x0, box.x1, next);
                        if constexpr (Sinks == SinkStores::InWalk)
                            if (faces) {
                                T* cell = target + m * line;
                                if (faces & 15)
                                    sinks->store_at(((faces >> 4) & 7) - 1, cell, next, faces & 15);
                                const int y_side = faces >> (kRowBits + 2 * m) & 3;
                                const bool z_face = k < sink_z0 || k >= sink_z1;
                                const int lanes = faces >> kBoxLanes & 15;
                                if (y_side) sinks->store_side(1 + y_side, cell, next, lanes);
                                if (z_face)
                                    sinks->store_side(k < sink_z0 ? 4 : 5, cell, next, lanes);
                            }
                    } else {
                        store_vec_masked(target + m * line, i, box.x0, box.x1, lap);
                    }
                }
            }
            target += slice;
            p_mine += slice;
#pragma unroll
            for (int m = 0; m < Rows; ++m)
#pragma unroll
                for (int s = 0; s < 2 * R; ++s)
                    w[m][s] = w[m][s + 1];
        }
    }
    // After the walk, when its registers are free: the thread's own cells
    // that a face sink holds, read back (this thread wrote them) and
    // stored there. Inside the walk the store pushed the slab kernel past
    // its registers on ROCm 6.4 (performance-history.md, item 34).
    // (The table kernel's sinks are its argument: never null, and its
    // address, tested, cost hipcc a copy of it in scratch.)
    [[maybe_unused]] const Box mine{
        max(i, box.x0), min(i + L, box.x1), j0, min(j0 + Rows, box.y1), k_first, k_last};
    if constexpr (Sinks == SinkStores::AfterWalk)
        if (x_stores && sinks->count > 0) sinks->copy(out, mine);
    if constexpr (Sinks == SinkStores::InWalk) // a table that is not direct
        if (x_stores && !faces && sinks && sinks->count > 0) sinks->copy(out, mine);
    // The source, after the walk too: added inside it, the loop over the
    // images held registers in every plane's code, and hipcc 7 (ROCm 6.4)
    // put 36 of the walks in scratch (docs/data/tile-source-2026-12-06/).
    // Each image among the thread's own cells is read back, added to and
    // stored again, then copied into the sinks that hold it: the one
    // addition the source's own launch makes.
    if constexpr (Wave && Ahead == 1 && !std::is_same_v<Source, NoSourceInWalk>)
        if (source && x_stores && source.meets(mine))
            source.table->add_within(out.origin, out.layout, mine, [&](const Box& cell) {
                if (sinks && sinks->count > 0) sinks->copy(out, cell);
            });
}

} // namespace stencil::detail
