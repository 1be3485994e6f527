// A half-open box of cells [x0,x1) x [y0,y1) x [z0,z1), in the index space of
// a padded layout (layout.hpp): halo cells sit at 0..R-1, the interior at R..n+R-1.
#pragma once

#include <cstddef>

#ifndef STENCIL_HD
#if defined(__CUDACC__) || defined(__HIPCC__)
#define STENCIL_HD __host__ __device__
#else
#define STENCIL_HD
#endif
#endif

// A small function the kernels call per cell: always inlined, whatever
// the compiler's estimate of the largest kernels.
#ifndef STENCIL_HD_INLINE
#if defined(__CUDACC__) || defined(__HIPCC__)
#define STENCIL_HD_INLINE __host__ __device__ __forceinline__
#else
#define STENCIL_HD_INLINE inline
#endif
#endif

namespace stencil {

enum class Axis { X, Y, Z };

struct Box {
    int x0 = 0, x1 = 0, y0 = 0, y1 = 0, z0 = 0, z1 = 0;

    STENCIL_HD int nx() const { return x1 - x0; }
    STENCIL_HD int ny() const { return y1 - y0; }
    STENCIL_HD int nz() const { return z1 - z0; }
    STENCIL_HD bool empty() const { return x1 <= x0 || y1 <= y0 || z1 <= z0; }
    STENCIL_HD std::size_t cells() const {
        return empty() ? 0 : std::size_t(nx()) * std::size_t(ny()) * std::size_t(nz());
    }
    STENCIL_HD bool contains(int i, int j, int k) const {
        return i >= x0 && i < x1 && j >= y0 && j < y1 && k >= z0 && k < z1;
    }

    friend bool operator==(const Box& a, const Box& b) {
        return a.x0 == b.x0 && a.x1 == b.x1 && a.y0 == b.y0 && a.y1 == b.y1 && a.z0 == b.z0 &&
               a.z1 == b.z1;
    }
};

} // namespace stencil
