// Device-side building blocks shared by every kernel source: a 16-byte
// vector type, aligned vector loads, nontemporal stores, and the geometry of
// vector groups along x. Included only by .cu files.
//
// The vector width follows bytes, not elements: a 16-byte access is the
// widest either vendor issues per lane, so a group is 4 floats or 2 doubles
// (kLanes<T>). nvcc rejects GCC vector extensions in device code, so Vec is
// a plain aligned struct; loads and stores go through the runtime's float4 or
// double2, which both compilers turn into one 16-byte memory instruction.
#pragma once

#include "gpu_runtime.hpp"
#include "launch_table.hpp"
#include "layout.hpp"

#include <type_traits>

namespace stencil::device {

using ::stencil::kLanes; // launch_table.hpp: the host needs the group width too

template <class T>
struct alignas(16) Vec {
    T v[kLanes<T>];
};

template <class T>
__device__ inline Vec<T> load_vec(const T* p) {
    if constexpr (std::is_same_v<T, float>) {
        const float4 t = *reinterpret_cast<const float4*>(p);
        return {{t.x, t.y, t.z, t.w}};
    } else {
        const double2 t = *reinterpret_cast<const double2*>(p);
        return {{t.x, t.y}};
    }
}

template <class T>
__device__ inline void store_vec(T* p, const Vec<T>& a) {
    if constexpr (std::is_same_v<T, float>)
        *reinterpret_cast<float4*>(p) = make_float4(a.v[0], a.v[1], a.v[2], a.v[3]);
    else
        *reinterpret_cast<double2*>(p) = make_double2(a.v[0], a.v[1]);
}

// Stores that bypass (or are evicted first from) the caches: results are not
// read again by this kernel, so they should not push out the inputs' reuse.
template <class T>
__device__ inline void store_nontemporal(T* p, T a) {
#if defined(STENCIL_BACKEND_HIP)
    __builtin_nontemporal_store(a, p);
#else
    __stcs(p, a);
#endif
}

template <class T>
__device__ inline void store_vec_nontemporal(T* p, const Vec<T>& a) {
#if defined(STENCIL_BACKEND_HIP)
    typedef T native __attribute__((ext_vector_type(kLanes<T>)));
    native t;
#pragma unroll
    for (int q = 0; q < kLanes<T>; ++q)
        t[q] = a.v[q];
    __builtin_nontemporal_store(t, reinterpret_cast<native*>(p));
#else
    if constexpr (std::is_same_v<T, float>)
        __stcs(reinterpret_cast<float4*>(p), make_float4(a.v[0], a.v[1], a.v[2], a.v[3]));
    else
        __stcs(reinterpret_cast<double2*>(p), make_double2(a.v[0], a.v[1]));
#endif
}

// Vector groups along x: launch_table.hpp (the HOST back-end walks them too).
using ::stencil::XGroups;

// Stores lanes of `a` that fall inside [x0, x1); one vector store when all do.
template <class T>
__device__ inline void store_vec_masked(T* p, int i, int x0, int x1, const Vec<T>& a) {
    constexpr int L = kLanes<T>;
    if (i >= x0 && i + L - 1 < x1) {
        store_vec_nontemporal(p, a);
        return;
    }
#pragma unroll
    for (int q = 0; q < L; ++q)
        if (i + q >= x0 && i + q < x1) store_nontemporal(p + q, a.v[q]);
}

// The block's dynamic LDS as vectors of T. Declared once, as raw bytes: an
// extern __shared__ array cannot change its type between instantiations.
template <class T>
__device__ inline Vec<T>* dynamic_lds() {
    extern __shared__ __attribute__((aligned(16))) unsigned char lds_bytes[];
    return reinterpret_cast<Vec<T>*>(lds_bytes);
}

// Groups of x halo needed on each side of a vector for radius R.
template <int R, class T>
inline constexpr int kHaloGroups = (R + kLanes<T> - 1) / kLanes<T>;

// The 2G+1 groups around a cell's own group as one row of L * (2G+1)
// values, x fastest: group s (0..2G, the centre at G) is group(s). The x
// terms of the vectorised x derivative and of the fused kernels read it.
template <int R, class T, class Group>
__device__ __forceinline__ void x_row(T (&xr)[kLanes<T> * (2 * kHaloGroups<R, T> + 1)],
                                      Group&& group) {
    constexpr int G = kHaloGroups<R, T>, L = kLanes<T>;
#pragma unroll
    for (int s = 0; s < 2 * G + 1; ++s) {
        const Vec<T> v = group(s);
#pragma unroll
        for (int q = 0; q < L; ++q)
            xr[L * s + q] = v.v[q];
    }
}

} // namespace stencil::device
