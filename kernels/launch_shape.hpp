// Launch shapes: how a kernel's threads cover a box, what each kernel is
// built for, and the default shapes. Host policy beside the kernels; the
// launchers (stencil.hpp) refuse a shape `fits` rejects, and the tuner
// (tuner.hpp) searches only shapes that fit.
#pragma once

#include "box.hpp"
#include "coefficients.hpp"
#include "layout.hpp"
#include "precision.hpp"

#include <cstddef>
#include <string>

namespace stencil {

// The two kernels whose shape is tuned: the fused one-pass Laplacian and
// the fused wave update built on it.
enum class FusedKernel { Laplacian, Wave };

// "fused_xyz" or "wave": the benchmark's and the tuning cache's names.
const char* fused_kernel_name(FusedKernel kernel);
// The kernel named `name`; false when there is none.
bool parse_fused_kernel(const std::string& name, FusedKernel& kernel);

// The wave update's body over one box. The tile walks z with an LDS tile
// and a register window (fused_walk.hpp), reusing each loaded plane 2R + 1
// times; cells gives each thread one 16-byte group of one plane at a time,
// every neighbour loaded through the caches (slab_cells.hpp). A box too
// small to fill the GPU with walks runs faster as cells: its three fields
// sit in the L2 cache, so a neighbour loaded twice costs a cache hit, and
// what it lacks is threads (wave_body_for). Auto: chosen per box.
enum class WaveBody : int { Auto = 0, Tile = 1, Cells = 2 };
const char* wave_body_name(WaveBody body);
// The body `name` names ("auto", "tile", "cells"); false when none.
bool parse_wave_body(const std::string& name, WaveBody& body);

// Launch shape of the LDS, window and fused kernels. Each thread owns one
// 16-byte group of consecutive x cells (4 floats or 2 doubles) and, in the
// fused Laplacian and wave kernels, `rows` rows of it; a block covers
// block_x groups by block_y * rows rows and walks `window` planes along z.
// A field left 0 takes the measured default for the radius and precision
// (default_shape), except in the wave kernel, whose block and window are
// chosen per box (wave_shape). `ahead` is how many planes' loads a thread
// of the wave update keeps in flight while it computes one
// (fused_walk.hpp): 1, or 2 where two_planes_ahead_built.
struct LaunchShape {
    int block_x = 0; // threads along x
    int block_y = 0; // threads along y
    int window = 0;  // z planes per block (nw)
    int rows = 0;    // rows per thread along y: 1, 2, 4 or 8 (fused Laplacian and wave)
    int ahead = 0;   // planes of loads in flight: 1 or 2 (wave)
    WaveBody body = WaveBody::Auto; // the wave update's body; with Cells, one row and one
                                    // plane ahead, `window` the planes a thread updates

    // The planes in flight a launch of this shape keeps: 0 (unset, as the
    // tuner's and the tuning cache's older shapes are) runs one.
    int planes_ahead() const { return ahead > 0 ? ahead : 1; }
    // Whether any field of a tile's shape is asked for: such a request runs
    // the tile unless it names the body too.
    bool names_tile_fields() const { return block_x || block_y || window || rows || ahead; }
    // The same request for the tile: what the tile's own launchers resolve.
    LaunchShape on_tile() const {
        LaunchShape t = *this;
        t.body = WaveBody::Tile;
        return t;
    }
};

// Apron slots a thread of the fused kernels prefetches in registers, and
// the slots of a tile's staged apron (fused_tile.hpp, apron_slot): the R
// rows above and below its block_x centre columns, and the halo groups left
// and right of each of its tile_rows rows. A block whose apron has more
// slots than kApronPrefetch a thread (only small or very wide blocks) stages
// it synchronously each plane: correct, but slower.
inline constexpr int kApronPrefetch = 2;
STENCIL_HD constexpr int apron_slot_count(int radius, int lanes, int block_x, int tile_rows) {
    return 2 * radius * block_x + tile_rows * 2 * ((radius + lanes - 1) / lanes);
}

// The body of the wave update over a box of `cells` cells: the one
// `requested` names; the Tile where it names a tile's field (block, window,
// rows, planes ahead); else Cells up to kCellUpdateUpTo cells, the Tile
// above. Measured on an H100 (docs/PERFORMANCE.md, "One GPU, small boxes
// at the GPU's speed"): see launch_shape.cpp.
inline constexpr long long kCellUpdateUpTo = 100LL * 100 * 100;
WaveBody wave_body_for(const LaunchShape& requested, long long cells);

// The cells body's shape over `box` of `layout`, its window left to choose
// (0) unless `requested` names one: `requested`'s block where it names it,
// else cell_slab_block's; one row, one plane ahead.
LaunchShape cell_body_shape(const LaunchShape& requested, const Layout& layout, const Box& box,
                            Precision precision);

// The cells body's z planes a thread updates, one after another, with no
// reuse: the most of 8, 4, 2 and 1 whose launch still has three quarters
// of the blocks the device holds at once (as auto_wave_window counts).
int cell_window(long long blocks_per_layer, int nz, long long resident_blocks);

// One line for logs and reports: "16x8 threads, 64 planes, 2 rows, 1 ahead",
// or "16x16 threads, 1 planes, cells".
std::string shape_summary(const LaunchShape& t);

// Whether the resolved shape `t` prefetches its apron at `radius`.
bool apron_prefetched(const LaunchShape& t, int radius, Precision precision);

// Whether the wave update is built with two planes of loads in flight at
// this radius, precision and rows per thread: at each radius's default rows
// (default_rows), in the plain update and the one that stores its faces,
// wherever no compiler's resource table shows a spill and the SM (CU) keeps
// at least the bytes in flight it had: two planes on the warps (waves) that
// still fit hold no less than one plane on those that fitted before. That
// leaves out R = 2 and R = 5 on sm_90, which spill at their default rows,
// and R = 1 in FP64 there (four rows: 52 bytes of spill).
// Each entry is a set of rows per thread (1 | 2 | 4), by R; none on the
// HOST back-end. docs/data's resource tables list both kernels.
STENCIL_HD constexpr bool two_planes_ahead_built(int radius, Precision precision, int rows) {
#if defined(STENCIL_BACKEND_CUDA)
    constexpr int kRows32[9] = {0, 2, 0, 2, 2, 0, 1, 1, 1};
    constexpr int kRows64[9] = {0, 0, 0, 2, 2, 0, 1, 1, 1};
#elif defined(STENCIL_BACKEND_HIP)
    constexpr int kRows32[9] = {0, 1, 1, 1, 1, 1, 1, 1, 1};
    constexpr int kRows64[9] = {0, 1, 1, 1, 1, 1, 1, 1, 1};
#else
    constexpr int kRows32[9] = {}, kRows64[9] = {};
#endif
    if (radius < kMinRadius || radius > kMaxRadius || rows < 1 || (rows & (rows - 1)) != 0)
        return false;
    return ((precision == Precision::FP64 ? kRows64 : kRows32)[radius] & rows) != 0;
}

// Vectors a thread of the fused kernels keeps live: per row a z window of
// 2R+1 planes and the incoming plane (and for the wave update p_prev and
// the velocity term), plus the y column of rows + 2R groups.
STENCIL_HD constexpr int fused_live_vectors(int radius, int rows, FusedKernel kernel) {
    return rows * (2 * radius + 2 + (kernel == FusedKernel::Wave ? 2 : 0)) + 2 * radius;
}

// The most rows per thread (1, 2, 4 or 8) the fused Laplacian or the wave
// kernel is built for at radius R: those within a budget of live vectors,
// 48 for the Laplacian (44 on AMD GPUs) and 42 for the wave update, which
// also keeps the sponge and the leapfrog's operands live. The next shape
// up spills or fills the register file (docs/performance-history.md, "The
// fused kernels' live-vector budgets").
inline constexpr int kLaplacianVectorBudget =
#if defined(STENCIL_BACKEND_HIP)
    44;
#else
    48;
#endif
STENCIL_HD constexpr int max_fused_rows(int radius, FusedKernel kernel) {
    const int budget = kernel == FusedKernel::Wave ? 42 : kLaplacianVectorBudget;
    int rows = 1;
    while (rows < 8 && fused_live_vectors(radius, 2 * rows, kernel) <= budget)
        rows *= 2;
    return rows;
}

// 16 x 8 threads with a 16-plane window for R <= 5; from R = 6 the taller
// 8 x 16 block, whose smaller x halo share and register demand per tile win
// (docs/performance-history.md, "Launch shape sweep after the fix"). Rows
// per thread: default_rows of `kernel` (the other kernels ignore rows).
LaunchShape default_shape(int radius, Precision precision,
                          FusedKernel kernel = FusedKernel::Laplacian);
// The measured best rows per thread of `kernel` at radius R, within
// max_fused_rows.
int default_rows(int radius, Precision precision, FusedKernel kernel);
// `requested` with its zero fields filled from default_shape.
LaunchShape resolve_shape(const LaunchShape& requested, int radius, Precision precision,
                          FusedKernel kernel = FusedKernel::Laplacian);

// The wave kernel's z window when none is requested. Each block reloads 2R
// halo planes; the window is the shortest of 16, 32 and 64 planes that
// keeps them to an eighth of the planes it computes (64 from R = 3 on), or
// shorter where the launch would otherwise have fewer blocks
// (blocks_per_layer times its z layers) than the device holds at once
// (`resident_blocks`). Boxes too small to fill the device at 16 planes go
// down to 8, 4, 2 and 1: a block's time goes with window + 2R, and there
// three quarters of the slots count as full (docs/performance-history.md,
// "The wave's z window, chosen per box" and "Small boxes, the fixed cost of
// a step").
int auto_wave_window(long long blocks_per_layer, int nz, long long resident_blocks, int radius);

// The wave kernel's block for a box `groups` vector groups wide when no
// block is requested: the radius default, or for a box narrower than that
// block (the boundary slabs of a split along x) the taller 8 x 16 block,
// which leaves half as many threads idle (docs/performance-history.md,
// "Blocks for thin x slabs").
LaunchShape fit_block_to_box(const LaunchShape& defaults, int groups);

// The launch shape of launch_wave_step over `box` of `layout`: `requested`
// with its zero fields filled: on a GPU, the block by fit_block_to_box and
// the window by auto_wave_window.
template <int R, class T>
LaunchShape wave_shape(const LaunchShape& requested, const Layout& layout, const Box& box);

// The thin-slab kernel (slab_walk.hpp): kSlabThreads threads a block, one
// 16-byte group and one row each, block_x groups by block_y rows shaped to
// the slab's thin axis by slab_block: for a box thinnest along x its
// groups by as many rows (lanes along y); along y its rows by as many
// groups. block_x stays within kSlabThreads / R, so each thread stages at
// most two LDS apron slots. The window is left 0 for slab_window.
inline constexpr int kSlabThreads = 256;
LaunchShape slab_block(const Layout& layout, const Box& box, int radius, Precision precision);

// The kernels a boundary slab may run on: the interior's z-walking tile
// (fused_walk.hpp), the thin-slab walk (slab_walk.hpp), or one thread a
// 16-byte group with no walk (slab_cells.hpp).
enum class SlabKernel { Tile, Thin, Cells };
const char* slab_kernel_name(SlabKernel kernel);

// The kernel of boundary slab `box` of `layout` (`lanes` cells a 16-byte
// group, x slabs `x_depth` cells wide, slab_x_depth). Boxes of at most
// kCellSlabsUpTo cells take Cells for every slab: there a walk's reloaded
// planes and idle threads cost more than its reuse saves; on an H100 the
// six slabs took 13.4 us against 21.3 at 128^3 and 42.0 against 53.6 at
// 256^3 (docs/performance-history.md, "Slabs for small boxes"). Between
// 256^3 and 512^3 the choice is not measured. Larger boxes: where the x slabs are a 128-byte line
// of cells wide or more, the x and y slabs run Thin and the z slabs the Tile. Measured on an H100
// ("The thin-slab kernel"): the thin kernel ran y slabs 20-30% faster and line-wide x slabs at 100
// Gcell/s, but R-wide x slabs 10% slower at 512^3 and z slabs 20% slower, and a second launch loses
// the one launch's overlap of short and long slabs; so a split with
// R-wide x slabs keeps every slab on the tile, in one launch.
inline constexpr long long kCellSlabsUpTo = 256LL * 256 * 256;
SlabKernel slab_kernel(const Layout& layout, const Box& box, int lanes, int x_depth);

// Cells of the x boundary slabs: `requested` (--slab-x) or, left 0, a
// 128-byte line of cells (32 floats, 16 doubles) where the box is at least
// 16 lines wide, else `shell`, the cells the halo reaches (R, or k*R with
// deep halos); never fewer than `shell`. An x slab R cells wide pays for
// every row's cache lines and DRAM pages to update R cells of it, so a
// whole line costs little more, and the interior loses those cells: at
// 512^3 on an H100 the interior and the slabs took 4% less; at 256^3 3%,
// which wider slabs after the exchange could lose again, so it stays R
// there (docs/performance-history.md, "The thin-slab kernel").
int slab_x_depth(int requested, int shell, int nx, Precision precision);

// The slab kernel's z window for a box walked along z: the longest of 16, 8
// and 4 planes whose launch has at least half as many blocks as the device
// holds at once, else 4 (or the box's depth, if less). The 2R planes a
// block loads before its first are one column's centres only, so shorter
// windows than the interior's cost little (docs/performance-history.md,
// "The thin-slab kernel").
int slab_window(long long blocks_per_layer, int nz, long long resident_blocks);

// Cells: blocks of kSlabThreads threads at most, as many rows of the box
// as fit (up to all its rows) by as many groups as fill the rest, one plane
// a thread (a window of 1).
LaunchShape cell_slab_block(const Layout& layout, const Box& box, Precision precision);

// The launch shape of a boundary slab `box` of `layout` on `kernel`
// (slab_kernel): on Thin, slab_block with its window by slab_window; on
// Cells, cell_slab_block; on the Tile, wave_shape's default. `window`, if
// given, is the window (the benchmark's sweep).
template <int R, class T>
LaunchShape slab_shape(const Layout& layout, const Box& box, SlabKernel kernel, int window = 0);

// Bytes of one LDS tile of the fused kernels: rows*block_y + 2R staged rows
// of block_x + 2*ceil(R/lanes) 16-byte groups. The xyz and wave kernels use
// two (double-buffered); fused xy one, with rows 1.
std::size_t fused_tile_bytes(const LaunchShape& t, int radius, int rows, Precision precision);

// Empty string when the tuning can be launched at every radius in either
// precision (its zero fields filled per radius); otherwise why not.
std::string validate(const LaunchShape& t);
// Empty when the resolved shape `t` can be launched at `radius` in
// `precision` (threads, LDS, and the rows `kernel` is built for; the other
// kernels ignore rows); otherwise why not. The launchers refuse a shape
// this rejects.
std::string fits(const LaunchShape& t, int radius, Precision precision, FusedKernel kernel);

} // namespace stencil
