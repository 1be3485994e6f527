// The fused pack: where the boundary update also writes the cells that the
// next exchange carries, so that no pack pass reads them again.
//
// At halo depth 1 the cells a neighbour needs at step n+1 are this rank's
// owned R-deep faces of p(t_n+1), and the boundary slabs of step n are what
// computes them (the interior is shrunk by R on every side with a
// neighbour). So the slab kernel, as it stores a cell, also stores it into
// each sink whose box holds the cell: the send buffer of a message (cells
// in the buffer's order, x fastest), or, where this rank is its own
// neighbour, the halo cell the value fills on the other side of the box.
// The next step then posts its sends at once, and a rank alone along a
// periodic axis never exchanges at all.
//
// Six sinks at most: one per face (depth 1 sends no edge or corner).
#pragma once

#include "box.hpp"

namespace stencil {

inline constexpr int kMaxFaceSinks = 6;

template <class T>
struct FaceSinks {
    int count = 0;
    Box box[kMaxFaceSinks];              // owned cells of the face, as updated
    T* target[kMaxFaceSinks] = {};       // where the box's first cell goes
    long long line[kMaxFaceSinks] = {};  // the target's stride along y (x: 1)
    long long slice[kMaxFaceSinks] = {}; // and along z
    // The cells no sink holds lie inside `skip`, which store() tests first:
    // a slab's groups away from the faces pay one test, not six.
    Box skip{0, 0, 0, 0, 0, 0};

    // Appends a sink (empty boxes are skipped); false when the table is full.
    bool add(const Box& b, T* to, long long to_line, long long to_slice) {
        if (b.empty()) return true;
        if (count == kMaxFaceSinks) return false;
        box[count] = b, target[count] = to, line[count] = to_line, slice[count] = to_slice;
        ++count;
        return true;
    }

    // Where cell (i, j, k) of sink s goes.
    STENCIL_HD T* at(int s, int i, int j, int k) const {
        return target[s] + (i - box[s].x0) + (j - box[s].y0) * line[s] + (k - box[s].z0) * slice[s];
    }

    // Stores `lanes` consecutive values v[0..lanes) of cells (i.., j, k),
    // those in [x0, x1) (the updated box's mask), into every sink that
    // holds them. Unrolled over the fixed capacity, so that device code
    // never indexes the kernel argument at run time. (Read from device
    // memory in a rolled loop instead, the slabs ran 12-20% slower: H100,
    // performance-history.md item 34.)
    template <int Lanes, class V>
    STENCIL_HD void store(int i, int j, int k, int x0, int x1, const V& v) const {
        if (i >= skip.x0 && i + Lanes <= skip.x1 && j >= skip.y0 && j < skip.y1 && k >= skip.z0 &&
            k < skip.z1)
            return;
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#pragma unroll
#endif
        for (int s = 0; s < kMaxFaceSinks; ++s) {
            if (s >= count) break;
            const Box& b = box[s];
            if (j < b.y0 || j >= b.y1 || k < b.z0 || k >= b.z1 || i + Lanes <= b.x0 || i >= b.x1)
                continue;
            const int lo = b.x0 > x0 ? b.x0 : x0, hi = b.x1 < x1 ? b.x1 : x1;
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#pragma unroll
#endif
            for (int q = 0; q < Lanes; ++q)
                if (i + q >= lo && i + q < hi) *at(s, i + q, j, k) = v[q];
        }
    }
};

} // namespace stencil
