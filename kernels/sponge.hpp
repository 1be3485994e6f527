// The absorbing sponge: a damping rate eta that grows quadratically from 0 at
// the sponge's inner edge to `strength` at the outer boundary of the global
// grid. It is computed from global coordinates inside the kernel, so it costs
// arithmetic but no memory traffic, and every rank computes the same value
// for the same global cell whatever the decomposition.
#pragma once

#include "box.hpp"

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

// The widest sponge the profile's integers hold: n^2 must fit an int for
// every cell whose eta a kernel computes, where n reaches W plus the depth
// of the deepest halo outside the grid (the deep halos' ring).
inline constexpr int kMaxSpongeWidth = 46000;
static_assert((kMaxSpongeWidth + 340LL) * (kMaxSpongeWidth + 340LL) <= 2147483647LL,
              "n * n must fit a 32-bit int for cells up to 340 outside the grid");

struct Sponge {
    int width = 0;             // cells; 0 switches the sponge off
    float strength = 0.0f;     // eta at the outermost cell
    int offset[3] = {0, 0, 0}; // global index of this rank's first interior cell
    int extent[3] = {0, 0, 0}; // global interior cells per direction
    int halo = 0;              // local index of the first interior cell (the halo width)

    // Whether eta can be nonzero in some local cell of [lo, hi) along axis
    // d (0 x, 1 y, 2 z): false exactly where every cell of the range is at
    // least `width` cells from both global edges, so that eta has no term
    // along d there. A kernel that finds all three axes false for a block's
    // cells takes eta = 0 for them without computing it, bit for bit.
    template <int D>
    STENCIL_HD_INLINE bool reaches(int lo, int hi) const {
        if (width == 0 || lo >= hi) return false;
        const int first = lo - halo + offset[D], last = hi - 1 - halo + offset[D];
        return first < width || extent[D] - 1 - last < width;
    }

    // The term of eta along axis d at local index `local`: strength (n/W)^2
    // for a cell n = W - from_edge cells deep into a sponge W wide, as
    // strength / W^2 times n^2. n^2 is an exact integer and strength / W^2
    // is the same for every cell, so a damped cell pays one multiplication
    // where the quotient n/W cost a division (the division by W^2 is the
    // same in every cell, so a compiler may move it out of a loop).
    // kMaxSpongeWidth keeps W^2 and n^2 within an int.
    template <class T>
    STENCIL_HD_INLINE T term(int d, int local) const {
        const int g = local - halo + offset[d];
        const int from_edge = g < extent[d] - 1 - g ? g : extent[d] - 1 - g;
        if (from_edge >= width) return T(0);
        const int n = width - from_edge;
        return unfused_mul(T(strength) / T(width * width), T(n * n));
    }

    // Damping rate of local cell (i,j,k): the three axes' terms, x + y + z,
    // computed in the precision T of the update that uses it (a float
    // profile would put float rounding into a double run), each sum and
    // product rounded as on the host. Adding a zero term is exact, so an
    // undamped axis changes nothing. A loop over the axes, not three calls
    // written out: with the latter, hipcc 7 (ROCm 6.4) kept the FP64
    // kernels' windows of 2R + 1 vectors in scratch (64-336 bytes).
    template <class T>
    STENCIL_HD_INLINE T eta(int i, int j, int k) const {
        if (width == 0) return T(0);
        const int local[3] = {i, j, k};
        T sum = T(0);
        for (int d = 0; d < 3; ++d)
            sum = unfused_add(sum, term<T>(d, local[d]));
        return sum;
    }
};

} // namespace stencil
