// The boundary slabs' cell-by-cell update, for small boxes: each thread
// updates one 16-byte group of cells, loading every neighbour it needs
// straight from memory, with no LDS tile, no apron and no walk along z.
// Device code: included only by wave_kernels.cu.
//
// At 128^3 a slab R cells thin is too thin for a walk: a z slab's window
// loads 2R + 1 planes for R outputs, a y slab's tile stages 2R rows of apron
// for R rows, and an x slab one group wide leaves most of a tile idle. The
// six slabs then took 26 us for 17% of the cells, against 19 us for the
// inner box (docs/performance-history.md, "Slabs for small boxes"). At
// such boxes the three fields fit in the L2 cache, so a neighbour loaded
// twice costs a cache hit, not a trip to memory; what the slabs need is
// enough independent threads to fill the GPU, which one thread a group
// gives them. On an H100 the six slabs took 13.4 us at 128^3 against the
// tile's 21.3, and 42.0 at 256^3 against 53.6 (launches back to back).
// The sum is laplacian_from's, in the canonical order, so a cell's bits
// are those of every other kernel.
#pragma once

#include "face_sinks.hpp"
#include "fused_tile.hpp"
#include "gpu_launch.hpp"
#include "source.hpp"

// The cells kernel's bounds: kSlabThreads threads a block. nvcc, given
// only that bound, kept some radii at 64 or 80 registers and spilled; a
// budget of its own, 128 registers to R = 5 and 255 above, spills at no
// radius on sm_90 (docs/data/resources-sm90.txt). HIP's occupancy is left
// to its compiler.
#if defined(STENCIL_BACKEND_CUDA)
#define STENCIL_CELL_KERNEL_BOUNDS(R) __maxnreg__(((R) <= 5 ? 128 : 255))
#else
#define STENCIL_CELL_KERNEL_BOUNDS(R) __launch_bounds__(kSlabThreads)
#endif

namespace stencil::detail {

// The cells kernel's two callers: a slab table, which stores into the
// sinks it was passed and adds no source; a whole box, whose sinks are a
// table in device memory (or none) and which may add the source
// (SourceInUpdate).
template <class T>
struct NoSourceInUpdate {
    STENCIL_HD bool touches(int, int, int, int) const { return false; }
    template <int Lanes>
    STENCIL_HD void add_to(T (&)[Lanes], int, int, int) const {}
};
template <class T>
struct SourceAt {
    SourceInLaunch<T> source; // its table null where none
    __device__ bool touches(int i, int lanes, int j, int k) const {
        return source && source.touches(i, lanes, j, k);
    }
    template <int Lanes>
    __device__ void add_to(T (&values)[Lanes], int i, int j, int k) const {
        source.table->add_to(values, i, j, k);
    }
};
template <class T>
struct SinksAt {
    const FaceSinks<T>* table; // in device memory, or null
    __device__ void copy(FieldView<T> out, const Box& cells) const {
        if (table) table->copy(out, cells);
    }
};

// The update of the groups of `box` at (i, j) for planes [k_first, k_last),
// one plane after another; i is the group's first cell. The source, where
// `source` holds an image among the group's cells, is added before the
// group is stored.
template <int R, class T, class Sinks, class Source>
__device__ __forceinline__ void
slab_cells(FieldView<const T> p, FieldView<T> out, FieldView<const T> vel, const Box& box,
           const Coefficients<R, T>& c, const Sponge& sponge, int i, int j, int k_first, int k_last,
           const Sinks& sinks, const Source& source) {
    using namespace device;
    constexpr int G = kHaloGroups<R, T>, L = kLanes<T>;
    const long long line = (long long)p.layout.line, slice = (long long)p.layout.slice;
    for (int k = k_first; k < k_last; ++k) {
        const long long at = (long long)p.layout.index(i, j, k);
        const T* centre = p.origin + at;
        Vec<T> y[2 * R + 1], w[2 * R + 1], x[2 * G + 1];
#pragma unroll
        for (int s = 0; s < 2 * G + 1; ++s)
            x[s] = load_vec(centre + L * (s - G));
#pragma unroll
        for (int s = 0; s < 2 * R + 1; ++s) {
            y[s] = s == R ? x[G] : load_vec(centre + (s - R) * line);
            w[s] = s == R ? x[G] : load_vec(centre + (s - R) * slice);
        }
        const Vec<T> prev = load_vec(out.origin + at), v = load_vec(vel.origin + at);
        const Vec<T> lap = laplacian_from<R, true>([&](int s) { return x[s]; }, y, w, c);
        Vec<T> next;
#pragma unroll
        for (int q = 0; q < L; ++q)
            next.v[q] = leapfrog(x[G].v[q], prev.v[q], v.v[q], lap.v[q],
                                 sponge.template eta<T>(i + q, j, k));
        if (source.touches(i, L, j, k)) source.add_to(next.v, i, j, k);
        store_vec_masked(out.origin + at, i, box.x0, box.x1, next);
    }
    sinks.copy(out, Box{max(i, box.x0), min(i + L, box.x1), j, j + 1, k_first, k_last});
}

} // namespace stencil::detail
