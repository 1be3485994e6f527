// The fused pack: where the boundary update also writes the cells that the
// next exchange carries, so that no pack pass reads them again.
//
// At halo depth 1 the cells a neighbour needs at step n+1 are this rank's
// owned R-deep faces of p(t_n+1), and the boundary slabs of step n are what
// computes them (the interior is shrunk by R on every side with a
// neighbour). So each thread of the slab kernel, once its walk is done,
// copies the cells it wrote into each sink whose box holds them: the send
// buffer of a message (cells in the buffer's order, x fastest), or, where
// this rank is its own neighbour, the halo cell the value fills on the
// other side of the box.
// The next step then posts its sends at once, and a rank alone along a
// periodic axis never exchanges at all.
//
// Six sinks at most: one per face (depth 1 sends no edge or corner).
//
// The one-box update stores each group of cells into the sinks as it
// computes it (store()); the slabs' table kernel copies its cells after its
// walk (copy()): inside its walk the store pushed it past its registers on
// ROCm 6.4 (performance-history.md, item 34). The read-back costs little in
// a thin slab but, in the one-box kernel, each face thread walked its cells
// again one dependent load after another, and a 128^3 step took 1.9 times
// as long (PERFORMANCE.md, "One kernel a step on a node").
#pragma once

#include "box.hpp"

#include <cstdint>

#if defined(__CUDACC__) || defined(__HIPCC__) // both passes: device code calls it
#include "device_vec.hpp"
#endif

namespace stencil {

inline constexpr int kMaxFaceSinks = 6;

template <class T>
struct FaceSinks {
    int count = 0;
    Box box[kMaxFaceSinks];              // owned cells of the face, as updated
    T* target[kMaxFaceSinks] = {};       // where the box's first cell goes
    long long line[kMaxFaceSinks] = {};  // the target's stride along y (x: 1)
    long long slice[kMaxFaceSinks] = {}; // and along z
    // The cells no sink holds lie inside `skip`, which copy() tests first:
    // a slab's columns away from the faces pay one test, not six.
    Box skip{0, 0, 0, 0, 0, 0};
    // Faces laid out as the written field (the rank's own halos, and linked
    // neighbours of the same line and slice), by side (x low, x high, y
    // low, y high, z low, z high): the sink there (-1: none), and how far
    // each sink's cell lies from the updated cell, in elements. Where every
    // sink is such a face (`direct`, set by find_direct), the one-box kernel
    // stores each group at its own address plus that offset: a few
    // instructions for a thread of a face. Walking the whole table for
    // every group of an x face instead doubled a 128^3 step, since a thread
    // of each 16-wide block row holds one (PERFORMANCE.md, "One kernel a step on a node").
    int side[6] = {-1, -1, -1, -1, -1, -1};
    long long offset[kMaxFaceSinks] = {};
    bool direct = false;

    // Appends a sink (empty boxes are skipped); false when the table is full.
    bool add(const Box& b, T* to, long long to_line, long long to_slice) {
        if (b.empty()) return true;
        if (count == kMaxFaceSinks) return false;
        box[count] = b, target[count] = to, line[count] = to_line, slice[count] = to_slice;
        ++count;
        return true;
    }

    // Host: `direct`, `side` and `offset` for sinks of a field whose cell
    // (i, j, k) lies at origin + i + line * j + slice * k and whose owned
    // cells are `owned`. Each sink must be a whole face of `owned` with the
    // field's strides, one per side, and the two faces of an axis `apart`
    // cells or more from each other (so that no group of cells holds both).
    void find_direct(const Box& owned, const T* origin, long long to_line, long long to_slice,
                     int apart) {
        direct = count > 0;
        for (int& s : side)
            s = -1;
        const int lo[3] = {owned.x0, owned.y0, owned.z0}, hi[3] = {owned.x1, owned.y1, owned.z1};
        for (int s = 0; s < count; ++s) {
            const Box& b = box[s];
            const int b_lo[3] = {b.x0, b.y0, b.z0}, b_hi[3] = {b.x1, b.y1, b.z1};
            int axis = -1, spans = 0;
            for (int a = 0; a < 3; ++a) {
                if (b_lo[a] == lo[a] && b_hi[a] == hi[a])
                    ++spans;
                else
                    axis = a;
            }
            const bool low = axis >= 0 && b_lo[axis] == lo[axis];
            const bool face = spans == 2 && (low || b_hi[axis] == hi[axis]) &&
                              b_hi[axis] - b_lo[axis] + apart <= hi[axis] - lo[axis] &&
                              line[s] == to_line && slice[s] == to_slice;
            const long long bytes = (long long)(reinterpret_cast<std::uintptr_t>(target[s]) -
                                                reinterpret_cast<std::uintptr_t>(origin));
            if (!face || side[2 * axis + !low] >= 0 || bytes % (long long)sizeof(T) != 0) {
                direct = false;
                return;
            }
            side[2 * axis + !low] = s;
            offset[s] = bytes / (long long)sizeof(T) - (b.x0 + to_line * b.y0 + to_slice * b.z0);
        }
    }

    // Where cell (i, j, k) of sink s goes.
    STENCIL_HD T* at(int s, int i, int j, int k) const {
        return target[s] + (i - box[s].x0) + (j - box[s].y0) * line[s] + (k - box[s].z0) * slice[s];
    }

#if defined(__CUDACC__) || defined(__HIPCC__) // both passes: device code calls it
    // The direct path (find_direct): lanes `lanes` of `v` (a bit per lane),
    // the group the update has just stored at `cell` in the field, into sink
    // s, or the sink on side `face_side`, at `cell` plus its offset: no
    // read-back, so the stores spread over the kernel's walk; a whole group
    // to an aligned target in one 16-byte store (one crossing of the link
    // where it is another GPU's halo). The table is read here, behind a
    // compiler barrier, so that no sink's address is hoisted out of the
    // walk into registers (from the kernel's arguments it took 25 more at
    // R = 4, and two kernels spilled).
    __device__ void store_side(int face_side, T* cell, const device::Vec<T>& v, int lanes) const {
        asm volatile("" ::: "memory");
        store_at(side[face_side], cell, v, lanes);
    }
    __device__ void store_at(int s, T* cell, const device::Vec<T>& v, int lanes) const {
        constexpr int L = device::kLanes<T>;
        asm volatile("" ::: "memory");
        T* to = cell + offset[s];
        if (lanes == (1 << L) - 1 && (reinterpret_cast<std::uintptr_t>(to) & 15) == 0) {
            device::store_vec(to, v);
            return;
        }
#pragma unroll
        for (int q = 0; q < L; ++q)
            if (lanes >> q & 1) to[q] = v.v[q];
    }
#endif

    // Copies the cells `cells` of `field` (cells one thread or one tile
    // of the update wrote) into every sink that holds them. Unrolled over
    // the fixed capacity, so that device code never indexes the kernel
    // argument at run time.
    template <class F>
    STENCIL_HD void copy(const F& field, const Box& cells) const {
        if (cells.x0 >= skip.x0 && cells.x1 <= skip.x1 && cells.y0 >= skip.y0 &&
            cells.y1 <= skip.y1 && cells.z0 >= skip.z0 && cells.z1 <= skip.z1)
            return;
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#pragma unroll
#endif
        for (int s = 0; s < kMaxFaceSinks; ++s) {
            if (s >= count) break;
            const Box& f = box[s];
            const int x0 = cells.x0 > f.x0 ? cells.x0 : f.x0,
                      x1 = cells.x1 < f.x1 ? cells.x1 : f.x1;
            const int y0 = cells.y0 > f.y0 ? cells.y0 : f.y0,
                      y1 = cells.y1 < f.y1 ? cells.y1 : f.y1;
            const int z0 = cells.z0 > f.z0 ? cells.z0 : f.z0,
                      z1 = cells.z1 < f.z1 ? cells.z1 : f.z1;
            for (int k = z0; k < z1; ++k)
                for (int j = y0; j < y1; ++j) {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
                    // A whole 16-byte group to an aligned target in one
                    // store, not four: where the target is another GPU's
                    // halo (--comm peer's y and z faces) each store
                    // crosses the link on its own.
                    T* to = at(s, x0, j, k);
                    const T* from = &field(x0, j, k);
                    if (x1 - x0 == device::kLanes<T> && ((reinterpret_cast<std::uintptr_t>(to) |
                                                          reinterpret_cast<std::uintptr_t>(from)) &
                                                         15) == 0) {
                        device::store_vec(to, device::load_vec(from));
                        continue;
                    }
#endif
                    for (int x = x0; x < x1; ++x)
                        *at(s, x, j, k) = field(x, j, k);
                }
        }
    }
};

} // namespace stencil
