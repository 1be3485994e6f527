// The padded memory layout of one field.
//
// A field of nx*ny*nz interior cells carries a halo H cells wide on every
// side: the stencil radius R, or k*R with deep halos (one exchange every k
// steps). Cell (i,j,k), with the halo at 0..H-1 and the interior at
// H..n+H-1, lives at
//
//     pos = i + line*j + slice*k        relative to origin = base + front
//
// `line` (the leading dimension) is padded to a multiple of 64 elements, and
// `front` shifts the origin so that the first interior x cell of every row,
// i = H, sits on a 64-element boundary: 256 bytes in float, 512 in double.
// Vector loads and stores of the interior are then aligned whatever H and
// the precision are, and every row starts a fresh cache line. The layout
// counts elements, so one Layout serves both precisions.
#pragma once

#include "box.hpp"

#include <cstddef>

namespace stencil {

struct Layout {
    static constexpr int kLineMultiple = 64;  // elements: 256 bytes of float, 512 of double
    static constexpr int kAlignElements = 64; // elements before the interior's first x cell
    static constexpr int kTailPadding = 64;   // room for a vector load past the last row

    int nx = 0, ny = 0, nz = 0; // interior cells
    int halo = 0;               // halo width H (cells on each side)
    int line = 0;               // elements between (i,j,k) and (i,j+1,k)
    std::size_t slice = 0;      // elements between (i,j,k) and (i,j,k+1)
    int front = 0;              // elements from the allocation's start to the origin

    Layout() = default;
    Layout(int nx_, int ny_, int nz_, int halo_)
        : nx(nx_), ny(ny_), nz(nz_), halo(halo_),
          line((nx_ + 2 * halo_ + kLineMultiple - 1) / kLineMultiple * kLineMultiple),
          slice(std::size_t(line) * std::size_t(ny_ + 2 * halo_)),
          front((kAlignElements - halo_ % kAlignElements) % kAlignElements) {}

    // Extents including the halo.
    STENCIL_HD int px() const { return nx + 2 * halo; }
    STENCIL_HD int py() const { return ny + 2 * halo; }
    STENCIL_HD int pz() const { return nz + 2 * halo; }

    // Elements to allocate for one field.
    std::size_t allocation() const {
        return std::size_t(front) + slice * std::size_t(pz()) + kTailPadding;
    }

    STENCIL_HD std::size_t index(int i, int j, int k) const {
        return std::size_t(i) + std::size_t(line) * std::size_t(j) + slice * std::size_t(k);
    }

    // The interior cells, and every cell including the halo.
    Box interior() const { return {halo, halo + nx, halo, halo + ny, halo, halo + nz}; }
    Box padded() const { return {0, px(), 0, py(), 0, pz()}; }
};

} // namespace stencil
