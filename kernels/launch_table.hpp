// One launch over several boxes: the tables that let a single kernel launch
// cover all halo faces of a step (pack, unpack, fill) or all boundary slabs
// of its wave update, instead of one launch per box.
//
// At small boxes a step is bound by launches, not bytes: up to six slabs and
// four packs and unpacks each cost a launch of a few microseconds. A table
// travels as a kernel argument (a few hundred bytes, no copy), and each
// block or thread finds its box in it. The mapping from a flat block or
// cell index to a box is here, in host-and-device code, so that the HOST
// back-end walks the very same mapping and CI can prove on a machine
// without a GPU that a merged launch covers exactly the cells the separate
// launches did (tests/test_launch_tables.cpp).
#pragma once

#include "box.hpp"
#include "launch_shape.hpp"
#include "layout.hpp"

#include <array>
#include <vector>

namespace stencil {

// Cells of T in one 16-byte vector group: 4 floats or 2 doubles. The width
// follows bytes, the widest access either vendor issues per lane.
template <class T>
inline constexpr int kLanes = int(16 / sizeof(T));

// Vector groups along x. Any box may start at any x0: groups are aligned to
// the allocation (16 bytes), so the first group may begin up to lanes-1
// cells before x0 and the last may end past x1. Loads always take whole
// aligned groups (the halo and the padding make that safe); stores are
// masked to the box, which keeps every path bitwise identical to the
// aligned fast path.
struct XGroups {
    int first; // x index of the first group's first cell (<= x0)
    int count; // groups covering [x0, x1)

    STENCIL_HD static XGroups of(const Layout& layout, int x0, int x1, int lanes) {
        const int first = x0 - (layout.front + x0) % lanes;
        const XGroups tight{first, (x1 - first + lanes - 1) / lanes};
        // A wide box starts its groups on a 128-byte line instead, when that
        // adds at most an eighth to its groups: every block's rows then load
        // and store whole lines and sectors. The interior of a rank with x
        // neighbours starts at 2R, 16 bytes into a line at R = 4 in FP32; so
        // anchored, it ran 3% faster on an H100 (docs/performance-history.md,
        // "The shell, measured part by part"). The groups before x0 are
        // masked like any partial group, and lie inside the interior or its
        // halo, since the interior's first cell starts a line (layout.hpp).
        const int line = 8 * lanes; // cells of a 128-byte line
        const int anchored = x0 - (layout.front + x0) % line;
        const XGroups wide{anchored, (x1 - anchored + lanes - 1) / lanes};
        return 8 * (wide.count - tight.count) <= tight.count ? wide : tight;
    }
};

// Boxes one wave table holds: six boundary slabs.
inline constexpr int kMaxTableBoxes = 6;
// Boxes one face table holds: a halo part towards each of the 26 neighbours
// of deep halos (faces, edges, corners); about 1 KB as a kernel argument.
inline constexpr int kMaxFaceBoxes = 26;

// ---- Faces: one thread per cell ---------------------------------------------

// Boxes walked cell by cell, x fastest, then y, then z, each with an
// optional buffer that holds its cells in that order (pack and unpack).
template <class T>
struct FaceTable {
    int count = 0;
    Box box[kMaxFaceBoxes];
    T* buffer[kMaxFaceBoxes] = {};
    long long first[kMaxFaceBoxes + 1] = {}; // first flat cell index of each box; [count]: total

    // Appends a box (empty boxes are skipped); false when the table is full.
    bool add(const Box& b, T* buf) {
        if (b.empty()) return true;
        if (count == kMaxFaceBoxes) return false;
        box[count] = b;
        buffer[count] = buf;
        first[count + 1] = first[count] + (long long)b.cells();
        ++count;
        return true;
    }
    STENCIL_HD long long cells() const { return first[count]; }
};

// Where flat cell index t (0 <= t < cells()) of a face table lies.
struct FaceCell {
    int face;       // which box
    long long item; // index within the box (and its buffer)
    int i, j, k;    // the cell
};

template <class T>
STENCIL_HD inline FaceCell locate_face_cell(const FaceTable<T>& table, long long t) {
    int f = 0;
    while (f + 1 < table.count && t >= table.first[f + 1])
        ++f;
    const Box& b = table.box[f];
    const long long item = t - table.first[f];
    const long long row = item / b.nx();
    return {f, item, b.x0 + int(item - row * b.nx()), b.y0 + int(row % b.ny()),
            b.z0 + int(row / b.ny())};
}

// ---- Slabs: one block per tile ------------------------------------------------

// One box of a wave-update table with its launch shape, and its place in the
// launch's flat block index. The boxes of a table share a launch, but each
// keeps its own block_x x block_y split and z window: a 4-cell-wide x slab
// and a 512-wide y slab share a launch.
struct TableBox {
    Box box;
    XGroups groups{0, 0}; // the 16-byte groups covering [x0, x1)
    int block_x = 0, block_y = 0, window = 0;
    int grid_x = 0, grid_y = 0; // tiles along x (groups) and y (rows * block_y rows)
    long long first_block = 0;  // flat index of this box's first block
};

// Which kernel a table launches (SlabKernel): the thin-slab kernel
// (slab_walk.hpp, one row a thread) or the cells kernel (slab_cells.hpp,
// one group a thread), each with any block of at most kSlabThreads threads,
// or the interior's z-walking tile (fused_walk.hpp), whose boxes share
// threads per block and rows per thread (one instantiation).
struct WaveTable {
    int count = 0;
    SlabKernel kernel = SlabKernel::Tile;
    int rows = 1;    // rows per thread (the tile only)
    int threads = 0; // the most block_x * block_y of its boxes
    TableBox box[kMaxTableBoxes];
    long long blocks = 0; // all boxes together: the launch's grid

    // Appends `b` of `layout` with its shape.
    void add(const Layout& layout, const Box& b, int lanes, int block_x, int block_y, int window) {
        TableBox& e = box[count++];
        e.box = b;
        e.groups = XGroups::of(layout, b.x0, b.x1, lanes);
        e.block_x = block_x, e.block_y = block_y, e.window = window;
        e.grid_x = (e.groups.count + block_x - 1) / block_x;
        e.grid_y = (b.ny() + rows * block_y - 1) / (rows * block_y);
        const int grid_z = (b.nz() + window - 1) / window;
        e.first_block = blocks;
        blocks += (long long)e.grid_x * e.grid_y * grid_z;
        threads = threads > block_x * block_y ? threads : block_x * block_y;
    }
};

// The box a block of a wave table works on, and its tile coordinates.
struct TablePlace {
    TableBox entry;
    int bx, by, bz; // tile along x, y and z within entry.box
};

// Unrolled over the fixed capacity with a uniform select rather than an
// indexed read of the table, so device code never indexes the kernel
// argument at run time (which would copy the table to local memory).
STENCIL_HD inline TablePlace locate_block(const WaveTable& table, long long block) {
    TablePlace p{table.box[0], 0, 0, 0};
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#pragma unroll
#endif
    for (int e = 1; e < kMaxTableBoxes; ++e)
        if (e < table.count && block >= table.box[e].first_block) p.entry = table.box[e];
    const long long local = block - p.entry.first_block;
    const long long per_layer = (long long)p.entry.grid_x * p.entry.grid_y;
    p.bz = int(local / per_layer);
    const long long in_layer = local - p.bz * per_layer;
    p.by = int(in_layer / p.entry.grid_x);
    p.bx = int(in_layer - (long long)p.by * p.entry.grid_x);
    return p;
}

// The cells of `entry.box` that block (bx, by, bz) updates, with `lanes`
// cells per group and `rows` rows per thread: the HOST back-end's walk of
// the same tiles the GPU kernel takes.
STENCIL_HD inline Box tile_cells(const TablePlace& p, int lanes, int rows) {
    const TableBox& e = p.entry;
    const int x0 = e.groups.first + lanes * p.bx * e.block_x;
    const int y0 = e.box.y0 + p.by * rows * e.block_y;
    const int z0 = e.box.z0 + p.bz * e.window;
    auto clamp_lo = [](int a, int lo) { return a < lo ? lo : a; };
    auto clamp_hi = [](int a, int hi) { return a > hi ? hi : a; };
    return {clamp_lo(x0, e.box.x0),
            clamp_hi(x0 + lanes * e.block_x, e.box.x1),
            y0,
            clamp_hi(y0 + rows * e.block_y, e.box.y1),
            z0,
            clamp_hi(z0 + e.window, e.box.z1)};
}

// A box of the wave update with its resolved launch shape (wave_shape, or
// for a boundary slab slab_shape), and for a slab its kernel (slab_kernel).
struct LaunchBox {
    Box box;
    LaunchShape shape;
    SlabKernel kernel = SlabKernel::Tile;
};

// `whole` split for overlap: the inner box, `whole` less depth[a] cells
// (at least R) on each side marked in `shrink` (x low, x high, y low, y
// high, z low, z high), which needs no halo from those sides, and the rest
// as six non-overlapping slabs, some of them empty, in this order: z low
// and high spanning the whole x-y extent, y low and high over the
// remaining z, x low and high over the rest.
struct ShellSplit {
    Box inner;
    std::array<Box, 6> slabs;
};
ShellSplit split_shell(const Box& whole, const std::array<int, 3>& depth, const bool (&shrink)[6]);
inline ShellSplit split_shell(const Box& whole, int radius, const bool (&shrink)[6]) {
    return split_shell(whole, {radius, radius, radius}, shrink);
}

// The wave tables one launch each covers `boxes` with (their shapes
// slab_shape's), in order: a box joins the first table of its kernel
// (LaunchBox::kernel) with room, and a tile table's boxes also share threads
// per block and rows per thread. The six boundary slabs of a step make one
// table, or two with line-wide x slabs: the z slabs, and the rest.
// `lanes`: cells per 16-byte group.
std::vector<WaveTable> wave_tables(const Layout& layout, const std::vector<LaunchBox>& boxes,
                                   int lanes);

} // namespace stencil
