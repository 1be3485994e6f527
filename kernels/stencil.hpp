// Host-side launchers of the stencil kernels: the only way code outside
// kernels/ runs an operator. Each takes views, a Box in the padded index
// space and a stream; the radius R is a template parameter, chosen once at
// run time with dispatch_radius().
//
// The same declarations are implemented twice: by GPU kernels (one source,
// compiled as HIP or CUDA) and by the HOST back-end's OpenMP loops.
#pragma once

#include "box.hpp"
#include "coefficients.hpp"
#include "fatal.hpp"
#include "field.hpp"
#include "launch_table.hpp"
#include "precision.hpp"
#include "sponge.hpp"
#include "stream.hpp"

#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace stencil {

// What a kernel computes, and how. See docs/ARCHITECTURE.md for each technique.
enum class Variant {
    BaselineX,
    BaselineY,
    BaselineZ, // one thread per cell, one direction
    VectorX,   // 4 cells per thread, register window along x
    LdsY,      // y neighbours through LDS (shared memory)
    WindowZ,   // sliding register window along z
    FusedXY,   // d2/dx2 + d2/dy2 in one pass
    FusedXYZ,  // the full Laplacian in one pass
};

const char* variant_name(Variant v);
// The variants this back-end implements (the HOST back-end has no LDS or windows).
const std::vector<Variant>& available_variants();
// The direction(s) a variant differentiates: "x", "y", "z", "xy" or "xyz".
const char* variant_axes(Variant v);

// Launch shape of the LDS, window and fused kernels. Each thread owns one
// 16-byte group of consecutive x cells (4 floats or 2 doubles) and, in the
// fused Laplacian and wave kernels, `rows` rows of it; a block covers
// block_x groups by block_y * rows rows and walks `window` planes along z.
// A field left 0 takes the measured default for the radius and precision
// (default_tuning), except in the wave kernel, whose block and window are
// chosen per box (wave_tuning).
struct Tuning {
    int block_x = 0; // threads along x
    int block_y = 0; // threads along y
    int window = 0;  // z planes per block (nw)
    int rows = 0;    // rows per thread along y: 1, 2, 4 or 8 (fused Laplacian and wave)
};

// Vectors a thread of the fused kernels keeps live: per row a z window of
// 2R+1 planes and the incoming plane (and for the wave update p_prev and
// the velocity term), plus the y column of rows + 2R groups.
STENCIL_HD constexpr int fused_live_vectors(int radius, int rows, bool wave) {
    return rows * (2 * radius + 2 + (wave ? 2 : 0)) + 2 * radius;
}

// The most rows per thread (1, 2, 4 or 8) the fused Laplacian (wave false)
// or wave kernel is built for at radius R: those within 48 live vectors for
// the Laplacian and 42 for the wave update, which also keeps the sponge and
// the leapfrog's operands live. The sm_90 resource tables drew the lines:
// the next shape up spilled (wave; at R = 6 in double with 44 live vectors
// one nvcc 13 release spilled 16 bytes and another did not) or sat at 255
// registers (Laplacian).
STENCIL_HD constexpr int max_fused_rows(int radius, bool wave) {
    int rows = 1;
    while (rows < 8 && fused_live_vectors(radius, 2 * rows, wave) <= (wave ? 42 : 48))
        rows *= 2;
    return rows;
}

// Measured on an H200, 512^3 (docs/PERFORMANCE.md): 16 x 8 threads with a
// 16-plane window for R <= 5; from R = 6 the taller 8 x 16 block, whose
// smaller x halo share and lower register demand per tile win (R = 8: 1.2x).
// Rows per thread: default_rows of the fused Laplacian, or with `wave` of
// the wave kernel (the other kernels ignore rows).
Tuning default_tuning(int radius, Precision precision, bool wave = false);
// The measured best rows per thread of the fused Laplacian (wave false) or
// wave kernel at radius R, within max_fused_rows.
int default_rows(int radius, Precision precision, bool wave);
// `requested` with its zero fields filled from default_tuning.
Tuning resolve_tuning(const Tuning& requested, int radius, Precision precision, bool wave = false);

// The wave kernel's z window when none is requested. Each block reloads 2R
// halo planes; the window is the shortest of 16, 32 and 64 planes that
// keeps them to an eighth of the planes it computes (64 from R = 3 on), or
// shorter where the launch would otherwise have fewer blocks
// (blocks_per_layer times its z layers) than the device holds at once
// (`resident_blocks`). Boxes too small to fill the device at 16 planes go
// down to 8, 4, 2 and 1: a block's time goes with window + 2R, and there
// three quarters of the slots count as full. Measured (docs/PERFORMANCE.md,
// history items 13 and 20): on an H200, R = 4, 512^3, 16 -> 64 planes, 76%
// -> 81% of copy, and R = 1 loses 3-7 points at 32 or 64 planes; on an
// H100, the kernel at 64^3 and 128^3 runs 1.6x and 1.15x faster at 1 and 8
// planes than at 16.
int auto_wave_window(long long blocks_per_layer, int nz, long long resident_blocks, int radius);

// The wave kernel's block for a box `groups` vector groups wide when no
// block is requested: the radius default, or for a box narrower than that
// block (the boundary slabs of a split along x) the taller 8 x 16 block,
// which leaves half as many threads idle (H200, R = 4, a 4 x 512 x 512
// slab: 0.081 -> 0.054 ms; docs/PERFORMANCE.md, history item 14).
Tuning fit_block_to_box(const Tuning& defaults, int groups);

// The launch shape of launch_wave_step over `box` of `layout`: `requested`
// with its zero fields filled: on a GPU, the block by fit_block_to_box and
// the window by auto_wave_window.
template <int R, class T>
Tuning wave_tuning(const Tuning& requested, const Layout& layout, const Box& box);

// Bytes of one LDS tile of the fused kernels: rows*block_y + 2R staged rows
// of block_x + 2*ceil(R/lanes) 16-byte groups. The xyz and wave kernels use
// two (double-buffered); fused xy one, with rows 1.
std::size_t fused_tile_bytes(const Tuning& t, int radius, int rows, Precision precision);

// Empty string when the tuning can be launched at every radius in either
// precision (its zero fields filled per radius); otherwise why not.
std::string validate(const Tuning& t);
// Empty when the resolved shape `t` can be launched at `radius` in
// `precision` (threads, LDS, and rows built for the fused Laplacian, or with
// `wave` the wave kernel; the other kernels ignore rows); otherwise why not.
// The launchers refuse a shape this rejects.
std::string fits(const Tuning& t, int radius, Precision precision, bool wave);

// out = the variant's derivative(s) of `in` over `box`.
template <int R, class T>
void launch_derivative(Variant variant, FieldView<const T> in, FieldView<T> out, const Box& box,
                       const Coefficients<R, T>& c, Stream& stream, const Tuning& tuning = {});

// The fused one-pass wave update over `box`, in place:
//   p_prev <- (2 p - (1 - eta) p_prev + vel * L(p)) / (1 + eta),  vel = dt^2 c^2.
template <int R, class T>
void launch_wave_step(FieldView<const T> p, FieldView<T> p_prev, FieldView<const T> vel,
                      const Box& box, const Coefficients<R, T>& c, const Sponge& sponge,
                      Stream& stream, const Tuning& tuning = {});

// A box of the wave update with its resolved launch shape (wave_tuning).
struct LaunchBox {
    Box box;
    Tuning tuning;
};

// The wave tables one launch each covers `boxes` with, in order: a box
// joins the first table whose boxes share its threads per block and rows
// per thread (one instantiation), so the boundary slabs of a step with the
// built-in shapes make one table. `lanes`: cells per 16-byte group.
std::vector<WaveTable> wave_tables(const Layout& layout, const std::vector<LaunchBox>& boxes,
                                   int lanes);

// launch_wave_step over every box of `boxes` (each with its resolved shape),
// one launch per table of wave_tables: bitwise the same cells and values as
// one launch per box, in fewer launches.
template <int R, class T>
void launch_wave_boxes(FieldView<const T> p, FieldView<T> p_prev, FieldView<const T> vel,
                       const std::vector<WaveTable>& tables, const Coefficients<R, T>& c,
                       const Sponge& sponge, Stream& stream);

// The explicit instantiations of the API above, written once for each
// back-end's sources.
#define STENCIL_INSTANTIATE_DERIVATIVE(R, T)                                                       \
    template void launch_derivative<R, T>(Variant, FieldView<const T>, FieldView<T>, const Box&,   \
                                          const Coefficients<R, T>&, Stream&, const Tuning&);
#define STENCIL_INSTANTIATE_WAVE(R, T)                                                             \
    template Tuning wave_tuning<R, T>(const Tuning&, const Layout&, const Box&);                   \
    template void launch_wave_step<R, T>(FieldView<const T>, FieldView<T>, FieldView<const T>,     \
                                         const Box&, const Coefficients<R, T>&, const Sponge&,     \
                                         Stream&, const Tuning&);                                  \
    template void launch_wave_boxes<R, T>(FieldView<const T>, FieldView<T>, FieldView<const T>,    \
                                          const std::vector<WaveTable>&,                           \
                                          const Coefficients<R, T>&, const Sponge&, Stream&);

// dst[0..count) = src[0..count): the bandwidth yardstick.
template <class T>
void launch_copy(const T* src, T* dst, std::size_t count, Stream& stream);

// Calls f(std::integral_constant<int, R>{}) for the run-time radius; the one
// place where a run-time R becomes a compile-time one.
template <class F>
decltype(auto) dispatch_radius(int radius, F&& f) {
    switch (radius) {
    case 1:
        return f(std::integral_constant<int, 1>{});
    case 2:
        return f(std::integral_constant<int, 2>{});
    case 3:
        return f(std::integral_constant<int, 3>{});
    case 4:
        return f(std::integral_constant<int, 4>{});
    case 5:
        return f(std::integral_constant<int, 5>{});
    case 6:
        return f(std::integral_constant<int, 6>{});
    case 7:
        return f(std::integral_constant<int, 7>{});
    case 8:
        return f(std::integral_constant<int, 8>{});
    default:
        fatal("radius " + std::to_string(radius) + " is outside 1..8");
    }
}

// Expands M(R, T) for every radius and element type the kernels are built
// for: the explicit instantiations of every back-end use it.
#define STENCIL_FOR_EACH_RADIUS(M, T)                                                              \
    M(1, T) M(2, T) M(3, T) M(4, T) M(5, T) M(6, T) M(7, T) M(8, T)
#define STENCIL_FOR_EACH_RADIUS_AND_TYPE(M)                                                        \
    STENCIL_FOR_EACH_RADIUS(M, float) STENCIL_FOR_EACH_RADIUS(M, double)

} // namespace stencil
