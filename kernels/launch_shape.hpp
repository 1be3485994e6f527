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

// Launch shape of the LDS, window and fused kernels. Each thread owns one
// 16-byte group of consecutive x cells (4 floats or 2 doubles) and, in the
// fused Laplacian and wave kernels, `rows` rows of it; a block covers
// block_x groups by block_y * rows rows and walks `window` planes along z.
// A field left 0 takes the measured default for the radius and precision
// (default_shape), except in the wave kernel, whose block and window are
// chosen per box (wave_shape).
struct LaunchShape {
    int block_x = 0; // threads along x
    int block_y = 0; // threads along y
    int window = 0;  // z planes per block (nw)
    int rows = 0;    // rows per thread along y: 1, 2, 4 or 8 (fused Laplacian and wave)
};

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
