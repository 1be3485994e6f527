// The absorbing sponge: a damping rate eta that grows quadratically from 0 at
// the sponge's inner edge to `strength` at the outer boundary of the global
// grid, by a cell's depth into the sponge: W minus its distance to the
// nearest face of the grid. A damped cell's leapfrog, divided by 1 + eta,
// becomes keep (undamped + eta p_prev) with keep = 1 / (1 + eta): two
// factors that depend on the depth alone, so a table of W + 1 pairs holds
// every cell's (SpongeTable). A damped cell pays a few integer minima, one
// load from a table that stays in cache, and three roundings, where
// computing eta and dividing by 1 + eta cost as much as its stencil
// (docs/performance-history.md, "The sponge at its cells' price"). Every
// rank, kernel and the host read the same factors, so a cell's damping is
// the same whatever the decomposition.
#pragma once

#include "box.hpp"

#include <type_traits>

namespace stencil {

// A product and a sum rounded each on its own, as the host reference
// computes them: the device compilers fuse a product into the sum that
// follows it (one rounding, not two) where they see fit, which may differ
// between kernels and from the host. The sponge's profile is made of these,
// so that a cell's eta is the same in every kernel, on every rank and on
// the host. CUDA device code, from nvcc with any host compiler or from
// clang (whose CUDA default fuses across statements and ignores the
// pragma), takes the round-to-nearest intrinsics, which are never fused;
// clang for HIP is told not to fuse these two operations: its intrinsics
// for the same (__dmul_rn) cost scratch memory with ROCm 6.4.
#if defined(__CUDA_ARCH__)
template <class T>
__device__ __forceinline__ T unfused_mul(T a, T b) {
    if constexpr (sizeof(T) == 4)
        return __fmul_rn(a, b);
    else
        return __dmul_rn(a, b);
}
template <class T>
__device__ __forceinline__ T unfused_add(T a, T b) {
    if constexpr (sizeof(T) == 4)
        return __fadd_rn(a, b);
    else
        return __dadd_rn(a, b);
}
#else
template <class T>
STENCIL_HD_INLINE T unfused_mul(T a, T b) {
#if defined(__clang__)
#pragma clang fp contract(off)
#endif
    return a * b;
}
template <class T>
STENCIL_HD_INLINE T unfused_add(T a, T b) {
#if defined(__clang__)
#pragma clang fp contract(off)
#endif
    return a + b;
}
#endif

// The widest sponge: W^2 and every depth's square fit a 32-bit int
// (damping_at).
inline constexpr int kMaxSpongeWidth = 46000;
static_assert(1LL * kMaxSpongeWidth * kMaxSpongeWidth <= 2147483647LL, "W^2 must fit an int");

// The damped leapfrog of a cell n cells deep into the sponge (n = W - d,
// d its distance to the nearest face):
//   p_next = (undamped + eta p_prev) / (1 + eta) = keep (undamped + eta p_prev)
// with keep = 1 / (1 + eta), eta = strength (n/W)^2: two products and a
// sum, each rounded on its own (unfused_*), as the host reference does.
// Aligned as one 8- or 16-byte load.
template <class T>
struct alignas(2 * sizeof(T)) Damping {
    T keep = T(1);
    T eta = T(0);
    STENCIL_HD_INLINE T applied(T undamped, T p_prev) const {
        return unfused_mul(keep, unfused_add(undamped, unfused_mul(eta, p_prev)));
    }
};

// The factors of depth n (1..W) of a sponge W wide: what SpongeTable stores
// and what a Sponge without a table computes, the same operations in T.
// eta is strength / W^2 times n^2, both exact in T up to kMaxSpongeWidth
// (the quotient the same for every cell), and one division a cell.
template <class T>
STENCIL_HD_INLINE Damping<T> damping_at(int n, int width, float strength) {
    const T eta = unfused_mul(T(strength) / T(width * width), T(n * n));
    return {T(1) / unfused_add(T(1), eta), eta};
}

struct Sponge {
    int width = 0;             // cells; 0 switches the sponge off
    float strength = 0.0f;     // eta at the outermost cell
    int offset[3] = {0, 0, 0}; // global index of this rank's first interior cell
    int extent[3] = {0, 0, 0}; // global interior cells per direction
    int halo = 0;              // local index of the first interior cell (the halo width)
    // Damping of depths 0..W (SpongeTable), for the run's precision: what
    // kernels read. The host computes the factors where it has no table
    // (the tests' references in a wider type).
    const Damping<float>* table32 = nullptr;
    const Damping<double>* table64 = nullptr;

    // Whether some local cell of [lo, hi) along axis d (0 x, 1 y, 2 z) lies
    // within `width` of a global edge along d: false exactly where none
    // does, so that a kernel that finds all three axes false for a block's
    // cells leaves them undamped without asking damp(), bit for bit.
    template <int D>
    STENCIL_HD_INLINE bool reaches(int lo, int hi) const {
        if (width == 0 || lo >= hi) return false;
        const int first = lo - halo + offset[D], last = hi - 1 - halo + offset[D];
        return first < width || extent[D] - 1 - last < width;
    }

    // How many cells local index `local` along axis d lies from the nearer
    // global face of that axis (0 on it; negative outside the grid).
    STENCIL_HD_INLINE int axis_distance(int d, int local) const {
        const int g = local - halo + offset[d];
        return min_of(g, extent[d] - 1 - g);
    }
    // The same for local cell (i,j,k) and the nearest face of all, at most
    // `width`. A z walk may keep x's and y's and take the minimum itself. A
    // loop over the axes, not three calls written out: with the latter,
    // hipcc 7 (ROCm 6.4) kept the FP64 kernels' windows of 2R + 1 vectors
    // in scratch (64-336 bytes), when the axes' terms of eta were summed.
    STENCIL_HD_INLINE int edge_distance(int i, int j, int k) const {
        const int local[3] = {i, j, k};
        int nearest = width;
        for (int d = 0; d < 3; ++d)
            nearest = min_of(nearest, axis_distance(d, local[d]));
        return nearest;
    }

    // The leapfrog of a cell `distance` from the nearest face with its
    // damping, given the undamped one: `undamped` itself outside the sponge.
    template <class T>
    STENCIL_HD_INLINE T damp_at(T undamped, T p_prev, int distance) const {
        if (distance >= width) return undamped;
        const Damping<T> f = factors<T>(width - max_of(distance, 0));
        return f.applied(undamped, p_prev);
    }
    // The same for local cell (i,j,k).
    template <class T>
    STENCIL_HD_INLINE T damp(T undamped, T p_prev, int i, int j, int k) const {
        if (width == 0) return undamped;
        return damp_at(undamped, p_prev, edge_distance(i, j, k));
    }
    // The same, the factors computed rather than loaded: the same bits
    // (damping_at's operations are IEEE's, on the device as on the host),
    // for kernels at their register cap, where the table's address and
    // index spilled (two planes ahead at R = 4 in FP32, 92 bytes on sm_90).
    template <class T>
    STENCIL_HD_INLINE T damp_computing(T undamped, T p_prev, int i, int j, int k) const {
        if (width == 0) return undamped;
        const int distance = edge_distance(i, j, k);
        if (distance >= width) return undamped;
        const Damping<T> f = damping_at<T>(width - max_of(distance, 0), width, strength);
        return f.applied(undamped, p_prev);
    }

    // The factors of depth n (1..W): on the device always from the table,
    // so that no kernel carries the divisions; on the host from the table
    // where there is one.
    template <class T>
    STENCIL_HD_INLINE Damping<T> factors(int n) const {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
        if constexpr (std::is_same_v<T, float>)
            return table32[n];
        else
            return table64[n];
#else
        if constexpr (std::is_same_v<T, float>) {
            if (table32) return table32[n];
        } else if constexpr (std::is_same_v<T, double>) {
            if (table64) return table64[n];
        }
        return damping_at<T>(n, width, strength);
#endif
    }

private:
    static STENCIL_HD_INLINE int min_of(int a, int b) {
        return a < b ? a : b;
    }
    static STENCIL_HD_INLINE int max_of(int a, int b) {
        return a > b ? a : b;
    }
};

} // namespace stencil
