#include "launch_shape.hpp"

#include "launch_table.hpp"

#include <algorithm>
#include <cstdio>

namespace stencil {

const char* fused_kernel_name(FusedKernel kernel) {
    return kernel == FusedKernel::Wave ? "wave" : "fused_xyz";
}

bool parse_fused_kernel(const std::string& name, FusedKernel& kernel) {
    for (const FusedKernel k : {FusedKernel::Laplacian, FusedKernel::Wave})
        if (name == fused_kernel_name(k)) {
            kernel = k;
            return true;
        }
    return false;
}

const char* wave_body_name(WaveBody body) {
    switch (body) {
    case WaveBody::Tile:
        return "tile";
    case WaveBody::Cells:
        return "cells";
    default:
        return "auto";
    }
}

bool parse_wave_body(const std::string& name, WaveBody& body) {
    for (const WaveBody b : {WaveBody::Auto, WaveBody::Tile, WaveBody::Cells})
        if (name == wave_body_name(b)) {
            body = b;
            return true;
        }
    return false;
}

WaveBody wave_body_for(const LaunchShape& requested, long long cells) {
    if (requested.body != WaveBody::Auto) return requested.body;
    if (requested.names_tile_fields()) return WaveBody::Tile;
    // The probe of docs/PERFORMANCE.md ("One GPU, small boxes at the GPU's
    // speed") ran a plain R = 4 update one cell a thread at 3.2 us a step at
    // 64^3 on an H100, where a walk of 16 planes, our tile's shape there,
    // took 10 us; at 128^3 the two were within 2% of each other, and our
    // tile, whose two rows a thread share a column of loads, was faster
    // than both.
    return cells <= kCellUpdateUpTo ? WaveBody::Cells : WaveBody::Tile;
}

LaunchShape cell_body_shape(const LaunchShape& requested, const Layout& layout, const Box& box,
                            Precision precision) {
    LaunchShape t = cell_slab_block(layout, box, precision);
    t.block_x = requested.block_x ? requested.block_x : t.block_x;
    t.block_y = requested.block_y ? requested.block_y : t.block_y;
    t.window = requested.window;
    t.rows = 1, t.ahead = 1, t.body = WaveBody::Cells;
    return t;
}

int cell_window(long long blocks_per_layer, int nz, long long resident_blocks) {
    for (const int window : {8, 4, 2})
        if (4 * blocks_per_layer * ((nz + window - 1) / window) >= 3 * resident_blocks)
            return window;
    return 1;
}

int default_rows(int radius, Precision precision, FusedKernel kernel) {
#if defined(STENCIL_BACKEND_HIP)
    // AMD GPUs (the HIP back-end builds for them only): one row per thread.
    // Unmeasured, so chosen from CI's gfx90a resource tables: two rows put
    // the R = 4 wave kernel at 206-214 VGPRs with HIP 5.2 (194-199 with
    // ROCm 6.4), 2 waves per SIMD, and one row at 122-134, 3-4 waves, which
    // a memory-bound kernel needs more than the shared y column
    // (docs/data/resources-gfx90a.txt, resources-gfx90a-rocm64.txt). The MI250X
    // block shapes of the seismic-stencil articles (64 x R threads, one cell
    // each) were measured on single-direction kernels without an LDS tile,
    // whose y halo would triple at 4 rows, so the block stays ours.
    // `--tuning` measures.
    (void)radius, (void)precision, (void)kernel;
    return 1;
#else
    // Measured at 512^3 on an H100 and an H200, every rows value each kernel
    // is built for (docs/performance-history.md, "Double precision and rows
    // per thread"); the value with
    // the larger sum of the two GPUs' fractions of copy. Index: R.
    constexpr int kLaplacian32[9] = {0, 2, 2, 2, 2, 1, 2, 2, 1};
    constexpr int kLaplacian64[9] = {0, 2, 2, 4, 4, 1, 1, 1, 1};
    constexpr int kWave32[9] = {0, 2, 4, 2, 2, 2, 1, 1, 1};
    constexpr int kWave64[9] = {0, 4, 4, 2, 2, 2, 1, 1, 1};
    const bool fp64 = precision == Precision::FP64;
    const int* table = kernel == FusedKernel::Wave ? (fp64 ? kWave64 : kWave32)
                                                   : (fp64 ? kLaplacian64 : kLaplacian32);
    return table[radius];
#endif
}

LaunchShape default_shape(int radius, Precision precision, FusedKernel kernel) {
    const int rows = default_rows(radius, precision, kernel);
    // One plane ahead: two were never faster on an H200, and up to 5% faster
    // on an H100, so `--tuning` times both on the user's GPU
    // (docs/PERFORMANCE.md, "What limits the update kernels").
    return radius <= 5 ? LaunchShape{16, 8, 16, rows, 1} : LaunchShape{8, 16, 16, rows, 1};
}

LaunchShape resolve_shape(const LaunchShape& requested, int radius, Precision precision,
                          FusedKernel kernel) {
    const LaunchShape d = default_shape(radius, precision, kernel);
    return {requested.block_x ? requested.block_x : d.block_x,
            requested.block_y ? requested.block_y : d.block_y,
            requested.window ? requested.window : d.window,
            requested.rows ? requested.rows : d.rows,
            requested.ahead ? requested.ahead : d.ahead,
            requested.body};
}

LaunchShape fit_block_to_box(const LaunchShape& defaults, int groups) {
    if (groups >= defaults.block_x || defaults.block_x <= 8) return defaults;
    LaunchShape tall = defaults;
    tall.block_x = 8, tall.block_y = 16;
    return tall;
}

int auto_wave_window(long long blocks_per_layer, int nz, long long resident_blocks, int radius) {
    auto blocks = [&](int window) { return blocks_per_layer * ((nz + window - 1) / window); };
    for (const int window : {64, 32}) {
        const bool needed = window / 2 < 16 * radius; // half of it would reload more than 1/8
        if (needed && blocks(window) >= resident_blocks) return window;
    }
    // A box too small to fill the device at 16 planes: a block's time goes
    // with the planes it walks (window + 2R), so walk fewer, in more blocks.
    // Three quarters of the slots count as full here: on an H100, 128^3 at
    // R = 4 ran 8 planes (256 blocks for 264 slots) in 15.2 us, 4 in 18.2.
    for (const int window : {16, 8, 4, 2})
        if (4 * blocks(window) >= 3 * resident_blocks) return window;
    return 1;
}

namespace {

// The axis a box is thinnest along (0, 1, 2), its x extent counted in
// whole 16-byte groups.
int thin_axis(const Layout& layout, const Box& box, int lanes) {
    const int wide = std::max(1, XGroups::of(layout, box.x0, box.x1, lanes).count) * lanes;
    if (wide <= box.ny() && wide <= box.nz()) return 0;
    return box.ny() <= box.nz() ? 1 : 2;
}

} // namespace

const char* slab_kernel_name(SlabKernel kernel) {
    switch (kernel) {
    case SlabKernel::Thin:
        return "thin";
    case SlabKernel::Cells:
        return "cells";
    default:
        return "tile";
    }
}

SlabKernel slab_kernel(const Layout& layout, const Box& box, int lanes, int x_depth) {
    if ((long long)layout.nx * layout.ny * layout.nz <= kCellSlabsUpTo) return SlabKernel::Cells;
    return x_depth >= 8 * lanes && thin_axis(layout, box, lanes) != 2 ? SlabKernel::Thin
                                                                      : SlabKernel::Tile;
}

LaunchShape cell_slab_block(const Layout& layout, const Box& box, Precision precision) {
    const int lanes = 16 / element_bytes(precision);
    const int groups = std::max(1, XGroups::of(layout, box.x0, box.x1, lanes).count);
    LaunchShape t{0, 0, 1, 1};
    t.block_y = std::max(1, std::min(box.ny(), kSlabThreads / std::min(groups, 64)));
    t.block_x = std::max(1, std::min(groups, kSlabThreads / t.block_y));
    return t;
}

LaunchShape slab_block(const Layout& layout, const Box& box, int radius, Precision precision) {
    const int lanes = 16 / element_bytes(precision);
    const int groups = std::max(1, XGroups::of(layout, box.x0, box.x1, lanes).count);
    const int most_x = kSlabThreads / radius;
    LaunchShape t{0, 0, 0, 1};
    if (thin_axis(layout, box, lanes) == 0) { // lanes along y
        t.block_x = std::min(groups, most_x);
        t.block_y = kSlabThreads / t.block_x;
    } else { // the whole thin extent in one block
        t.block_y = std::max(1, std::min(box.ny(), 64));
        t.block_x = std::min(groups, kSlabThreads / std::max(t.block_y, radius));
    }
    return t;
}

int slab_x_depth(int requested, int shell, int nx, Precision precision) {
    if (requested > 0) return std::max(requested, shell);
    const int line = 128 / element_bytes(precision);
    return nx >= 16 * line && shell <= line ? line : shell;
}

int slab_window(long long blocks_per_layer, int nz, long long resident_blocks) {
    for (const int window : {16, 8})
        if (2 * blocks_per_layer * ((nz + window - 1) / window) >= resident_blocks) return window;
    return std::max(1, std::min(4, nz));
}

std::size_t fused_tile_bytes(const LaunchShape& t, int radius, int rows, Precision precision) {
    const std::size_t lanes = 16 / std::size_t(element_bytes(precision));
    const std::size_t halo_groups = (std::size_t(radius) + lanes - 1) / lanes;
    return std::size_t(rows * t.block_y + 2 * radius) * (std::size_t(t.block_x) + 2 * halo_groups) *
           16;
}

std::string shape_summary(const LaunchShape& t) {
    char text[96];
    if (t.body == WaveBody::Cells)
        std::snprintf(text, sizeof text, "%dx%d threads, %d planes, cells", t.block_x, t.block_y,
                      t.window);
    else
        std::snprintf(text, sizeof text, "%dx%d threads, %d planes, %d rows, %d ahead", t.block_x,
                      t.block_y, t.window, t.rows, t.planes_ahead());
    return text;
}

bool apron_prefetched(const LaunchShape& t, int radius, Precision precision) {
    const int lanes = 16 / element_bytes(precision);
    return apron_slot_count(radius, lanes, t.block_x, t.rows * t.block_y) <=
           kApronPrefetch * t.block_x * t.block_y;
}

namespace {

// Empty when `ahead` is a number of planes ahead, 1 or 2 (or 0, the default).
std::string planes_ahead_problem(int ahead) {
    if (ahead >= 0 && ahead <= 2) return {};
    return "planes ahead must be 1 or 2, not " + std::to_string(ahead);
}

// Empty when `t.ahead` planes in flight are built for this launch. 0 is
// the default, one plane, as every kernel is built: the tuner and the
// tuning cache name shapes without it.
std::string fits_planes_ahead(const LaunchShape& t, int radius, Precision precision,
                              FusedKernel kernel) {
    if (t.ahead != 2) return planes_ahead_problem(t.ahead);
    const std::string at = " at R=" + std::to_string(radius) + " in " + precision_name(precision);
    if (kernel != FusedKernel::Wave)
        return "two planes ahead are built for the wave update only, not the fused Laplacian";
    if (!two_planes_ahead_built(radius, precision, t.rows)) {
        // Name the rows that are built, so that the refusal says what to ask
        // for instead (on the HOST back-end: nothing).
        std::string built;
        for (const int rows : {1, 2, 4, 8})
            if (two_planes_ahead_built(radius, precision, rows))
                built += (built.empty() ? "" : " or ") + std::to_string(rows);
        bool built_anywhere = false;
        for (int r = kMinRadius; r <= kMaxRadius; ++r)
            for (const Precision p : {Precision::FP32, Precision::FP64})
                for (const int rows : {1, 2, 4, 8})
                    built_anywhere = built_anywhere || two_planes_ahead_built(r, p, rows);
        if (!built_anywhere) return "two planes ahead are not built on this back-end, at any R";
        if (built.empty()) return "two planes ahead are not built" + at + " on this back-end";
        return "two planes ahead are built" + at + " for " + built + " rows per thread, not " +
               std::to_string(t.rows);
    }
    if (!apron_prefetched(t, radius, precision))
        return "two planes ahead need a block whose apron a thread prefetches in " +
               std::to_string(kApronPrefetch) + " slots; " + std::to_string(t.block_x) + " x " +
               std::to_string(t.block_y) + " stages it each plane" + at;
    return {};
}

} // namespace

namespace {

// Empty when the cells body can run `t`: the wave update's, one row a
// thread and one plane of loads in flight, at most kSlabThreads threads.
std::string fits_cells(const LaunchShape& t, FusedKernel kernel) {
    if (kernel != FusedKernel::Wave)
        return "the cells body is the wave update's, not the fused Laplacian's";
    if (t.rows != 1)
        return "the cells body updates one row a thread, not " + std::to_string(t.rows);
    if (t.planes_ahead() != 1) return "the cells body keeps no planes of loads ahead";
    if (t.block_x * t.block_y > kSlabThreads)
        return "block_x*block_y is " + std::to_string(t.block_x * t.block_y) +
               ", above the cells body's " + std::to_string(kSlabThreads) + " threads";
    return {};
}

} // namespace

std::string fits(const LaunchShape& t, int radius, Precision precision, FusedKernel kernel) {
    const std::string at = " at R=" + std::to_string(radius) + " in " + precision_name(precision);
    if (t.block_x <= 0 || t.block_y <= 0 || t.window <= 0 || t.rows <= 0)
        return "block sizes, the z window and the rows must be positive";
    if (t.body == WaveBody::Cells) return fits_cells(t, kernel);
    if (t.block_x * t.block_y > 256)
        return "block_x*block_y is " + std::to_string(t.block_x * t.block_y) +
               ", above the kernels' launch bound of 256 threads";
    if (t.rows != 1 && t.rows != 2 && t.rows != 4 && t.rows != 8)
        return "rows per thread must be 1, 2, 4 or 8, not " + std::to_string(t.rows);
    if (t.rows > max_fused_rows(radius, kernel))
        return std::to_string(t.rows) + " rows per thread" + at + " would spill in the " +
               (kernel == FusedKernel::Wave ? "wave" : "fused Laplacian") + " kernel (at most " +
               std::to_string(max_fused_rows(radius, kernel)) + ")";
    // The fused kernels' two tiles must fit the 48 KiB that every back-end
    // grants without opting in.
    const std::size_t lds = 2 * fused_tile_bytes(t, radius, t.rows, precision);
    if (lds > 48 * 1024)
        return "the LDS tiles need " + std::to_string(lds) + " bytes" + at + ", above 48 KiB";
    return fits_planes_ahead(t, radius, precision, kernel);
}

std::string validate(const LaunchShape& requested) {
    if (requested.block_x < 0 || requested.block_y < 0 || requested.window < 0 ||
        requested.rows < 0)
        return "block sizes, the z window and the rows must be positive";
    if (const std::string why = planes_ahead_problem(requested.ahead); !why.empty()) return why;
    if (requested.body == WaveBody::Cells) {
        LaunchShape t = requested;
        t.block_x = t.block_x ? t.block_x : 1, t.block_y = t.block_y ? t.block_y : 1;
        t.window = t.window ? t.window : 1, t.rows = t.rows ? t.rows : 1;
        return fits_cells(t, FusedKernel::Wave);
    }
    // Unset fields take each radius's default, so check every radius. Rows
    // above a radius's maximum are checked where they are built: the
    // benchmark skips the radii they do not fit, saying so.
    for (const Precision precision : {Precision::FP32, Precision::FP64})
        for (int radius = kMinRadius; radius <= kMaxRadius; ++radius) {
            LaunchShape t = resolve_shape(requested, radius, precision);
            t.rows = std::min(t.rows, max_fused_rows(radius, FusedKernel::Laplacian));
            t.ahead = 1; // the wave update's alone: checked where it launches
            t.body = WaveBody::Tile;
            if (const std::string why = fits(t, radius, precision, FusedKernel::Laplacian);
                !why.empty())
                return why;
        }
    return {};
}

} // namespace stencil
