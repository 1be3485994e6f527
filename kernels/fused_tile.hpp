// The LDS tile of the fused kernels (fused_kernels.cu): where a block's tile
// sits, how its apron is staged (the R-wide border of cells around the
// tile that its stencil reads; "ring" names the deep halos' ghost cells
// elsewhere), and the Laplacian of one vector group from a staged row, a y
// column and a z window. Included only by .cu files.
#pragma once

#include "cell_math.hpp"
#include "coefficients.hpp"
#include "device_vec.hpp"
#include "field.hpp"
#include "launch_shape.hpp"

namespace stencil::device {

// Where a block sits: the first cell of its tile and the tile's LDS shape.
struct TilePlace {
    int i_block; // x index of the first cell of the block's first group
    int j_first; // y index of the block's first row
    int width;   // LDS slots (groups) per staged row: block_x + 2G
};

// The staged apron of a tile with `rows` centre rows and block_x centre
// groups, counted slot by slot: first the R rows above and the R below,
// centre columns only (block_x slots each: the y terms read only a cell's
// own column, so the corners are never needed; without them an aligned
// tile's rows are whole 32-byte sectors), then G groups left and right
// of every centre row. apron_slot(s) is slot s's LDS row and column in a tile
// of block_x + 2G columns.
struct ApronSlot {
    int row, column;
};

template <int R, class T>
STENCIL_HD constexpr int apron_slots(int block_x, int rows) {
    return 2 * R * block_x + rows * 2 * kHaloGroups<R, T>;
}
// The host's count (launch_shape.hpp), which chooses the kernel, is this one.
static_assert(apron_slots<4, float>(16, 16) == apron_slot_count(4, 4, 16, 16) &&
              apron_slots<8, double>(8, 16) == apron_slot_count(8, 2, 8, 16));

template <int R, class T>
__device__ inline ApronSlot apron_slot(int s, int block_x, int rows) {
    constexpr int G = kHaloGroups<R, T>;
    if (s < 2 * R * block_x) {
        const int h = s / block_x;
        return {h < R ? h : h + rows, G + s - h * block_x};
    }
    const int e = s - 2 * R * block_x, r = e / (2 * G), q = e - r * (2 * G);
    return {r + R, q < G ? q : q + block_x};
}

// Stages the apron around a one-row-per-thread tile of plane k. Loops over
// slots, so any R works whatever the block's height.
template <int R, class T>
__device__ inline void stage_apron(Vec<T>* tile, const TilePlace& t, FieldView<const T> p, int k,
                                   const Box& box) {
    const int bx = blockDim.x, by = blockDim.y;
    const int tid = threadIdx.y * bx + threadIdx.x, threads = bx * by;
    for (int s = tid; s < apron_slots<R, T>(bx, by); s += threads) {
        const ApronSlot rs = apron_slot<R, T>(s, bx, by);
        const int i = t.i_block + kLanes<T> * (rs.column - kHaloGroups<R, T>);
        const int j = t.j_first - R + rs.row;
        // Cells at or beyond x1+R / y1+R are no output's neighbour: skip
        // them, which also keeps partial tiles inside the allocation.
        if (i < box.x1 + R && j < box.y1 + R)
            tile[rs.row * t.width + rs.column] = load_vec(p.ptr(i, j, k));
    }
}

// The x terms from the 2G+1 groups of the cell's row (x_group(s), the
// centre at s = G), the y terms from a column of 2R+1 groups (its centre is
// the cell's own group) and the z terms from the window, summed in the
// canonical order of cell_math.hpp.
template <int R, bool WithZ, class T, class Group>
__device__ __forceinline__ Vec<T> laplacian_from(Group&& x_group, const Vec<T> (&y)[2 * R + 1],
                                                 const Vec<T> (&w)[2 * R + 1],
                                                 const Coefficients<R, T>& c) {
    constexpr int G = kHaloGroups<R, T>, L = kLanes<T>;
    T xr[L * (2 * G + 1)];
    x_row<R>(xr, x_group);
    Vec<T> lap;
#pragma unroll
    for (int q = 0; q < L; ++q) {
        const int centre = L * G + q;
        T acc = c.centre * xr[centre];
#pragma unroll
        for (int r = 1; r <= R; ++r) {
            acc = add_pair(acc, c.x[r], xr[centre - r], xr[centre + r]);
            acc = add_pair(acc, c.y[r], y[R - r].v[q], y[R + r].v[q]);
            if (WithZ) acc = add_pair(acc, c.z[r], w[R - r].v[q], w[R + r].v[q]);
        }
        lap.v[q] = acc;
    }
    return lap;
}

// laplacian_from with the x groups from a staged row: slots tx .. tx+2G of
// the row, whose centre slot is y[R].
template <int R, bool WithZ, class T>
__device__ inline Vec<T> laplacian_of(const Vec<T>* row, const Vec<T> (&y)[2 * R + 1],
                                      const Vec<T> (&w)[2 * R + 1], const Coefficients<R, T>& c) {
    constexpr int G = kHaloGroups<R, T>;
    return laplacian_from<R, WithZ>([&](int s) { return s == G ? y[R] : row[s]; }, y, w, c);
}

} // namespace stencil::device
