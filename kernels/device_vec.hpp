// Device-side building blocks shared by every kernel source: a 4-float
// vector type, aligned vector loads, nontemporal stores, and the geometry of
// 4-cell vector groups. Included only by .cu files.
//
// nvcc rejects GCC vector extensions in device code, so Vec4 is a plain
// aligned struct; loads and stores go through the runtime's float4, which
// both compilers turn into one 16-byte memory instruction.
#pragma once

#include "gpu_runtime.hpp"
#include "layout.hpp"

namespace stencil::device {

struct alignas(16) Vec4 {
    float v[4];
};

__device__ inline Vec4 load4(const float* p) {
    const float4 t = *reinterpret_cast<const float4*>(p);
    return {{t.x, t.y, t.z, t.w}};
}

__device__ inline void store4(float* p, const Vec4& a) {
    *reinterpret_cast<float4*>(p) = make_float4(a.v[0], a.v[1], a.v[2], a.v[3]);
}

// Stores that bypass (or are evicted first from) the caches: results are not
// read again by this kernel, so they should not push out the inputs' reuse.
__device__ inline void store_nontemporal(float* p, float a) {
#if defined(STENCIL_BACKEND_HIP)
    __builtin_nontemporal_store(a, p);
#else
    __stcs(p, a);
#endif
}

__device__ inline void store4_nontemporal(float* p, const Vec4& a) {
#if defined(STENCIL_BACKEND_HIP)
    typedef float native4 __attribute__((ext_vector_type(4)));
    const native4 t = {a.v[0], a.v[1], a.v[2], a.v[3]};
    __builtin_nontemporal_store(t, reinterpret_cast<native4*>(p));
#else
    __stcs(reinterpret_cast<float4*>(p), make_float4(a.v[0], a.v[1], a.v[2], a.v[3]));
#endif
}

// Vector groups along x. Any box may start at any x0: groups are aligned to
// the allocation (4 floats), so the first group may begin up to 3 cells
// before x0 and the last may end past x1. Loads always take whole aligned
// groups (the halo and the padding make that safe); stores are masked to the
// box, which keeps every path bitwise identical to the aligned fast path.
struct XGroups {
    int first; // x index of the first group's first cell (<= x0)
    int count; // groups covering [x0, x1)

    __host__ __device__ static XGroups of(const Layout& layout, int x0, int x1) {
        const int first = x0 - (layout.front + x0) % 4;
        return {first, (x1 - first + 3) / 4};
    }
};

// Stores lanes of `a` that fall inside [x0, x1); one vector store when all do.
__device__ inline void store4_masked(float* p, int i, int x0, int x1, const Vec4& a) {
    if (i >= x0 && i + 3 < x1) {
        store4_nontemporal(p, a);
        return;
    }
#pragma unroll
    for (int q = 0; q < 4; ++q)
        if (i + q >= x0 && i + q < x1) store_nontemporal(p + q, a.v[q]);
}

// Groups of x halo needed on each side of a vector for radius R.
template <int R>
inline constexpr int kHaloGroups = (R + 3) / 4;

} // namespace stencil::device
