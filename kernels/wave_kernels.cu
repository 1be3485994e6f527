// The wave update: one box per launch (the interior, or the whole box) on
// the z-walking body of fused_walk.hpp, or every box of a table per launch
// (the boundary slabs) on the thin-slab body of slab_walk.hpp; and their
// launch shapes. One source, compiled as HIP or CUDA.
#include "fused_launch.hpp"
#include "slab_cells.hpp"
#include "slab_walk.hpp"

#include <algorithm>
#include <string>

namespace stencil::detail {
namespace {

// The thin slabs' table in one launch: a 1-D grid of all boxes' blocks,
// each block finding its box, tile and 2-D thread shape in the table
// (launch_table.hpp), and storing the faces the next exchange sends into
// their sinks as it goes (face_sinks.hpp).
template <int R, class T>
__global__ void __launch_bounds__(kSlabThreads)
    slab_table_kernel(FieldView<const T> p, FieldView<T> out, FieldView<const T> vel,
                      WaveTable table, Coefficients<R, T> c, Sponge sponge, FaceSinks<T> sinks) {
    const TablePlace place = locate_block(table, blockIdx.x);
    const TableBox& e = place.entry;
    const int tx = int(threadIdx.x) % e.block_x, ty = int(threadIdx.x) / e.block_x;
    slab_walk<R, T>(p, out, vel, e.box, c, sponge, e.groups, e.window,
                    {e.block_x, e.block_y, tx, ty, place.bx, place.by, place.bz}, sinks);
}

// The cells kernel's table in one launch (slab_cells.hpp): each thread one
// group of its box, for the planes of its window.
template <int R, class T>
__global__ void STENCIL_CELL_KERNEL_BOUNDS(R)
    cell_table_kernel(FieldView<const T> p, FieldView<T> out, FieldView<const T> vel,
                      WaveTable table, Coefficients<R, T> c, Sponge sponge, FaceSinks<T> sinks) {
    const TablePlace place = locate_block(table, blockIdx.x);
    const TableBox& e = place.entry;
    const int tx = int(threadIdx.x) % e.block_x, ty = int(threadIdx.x) / e.block_x;
    const int i = e.groups.first + kLanes<T> * (place.bx * e.block_x + tx);
    const int j = e.box.y0 + place.by * e.block_y + ty;
    if (ty >= e.block_y || i >= e.box.x1 || j >= e.box.y1) return;
    const int k_first = e.box.z0 + place.bz * e.window;
    slab_cells<R, T>(p, out, vel, e.box, c, sponge, i, j, k_first,
                     min(k_first + e.window, e.box.z1), sinks, NoSourceInUpdate<T>{});
}

// The cells body over one box (WaveBody::Cells): each thread one group of
// `window` planes, storing each group into the sinks that hold it, and
// adding the source where `source` has an image; one thread advances the
// source's step count (source.hpp).
template <int R, class T>
__global__ void STENCIL_CELL_KERNEL_BOUNDS(R)
    cell_box_kernel(FieldView<const T> p, FieldView<T> out, FieldView<const T> vel, Box box,
                    XGroups groups, int window, Coefficients<R, T> c, Sponge sponge,
                    const FaceSinks<T>* sinks, SourceInLaunch<T> source) {
    count_source_step(source);
    const int i = groups.first + kLanes<T> * int(blockIdx.x * blockDim.x + threadIdx.x);
    const int j = box.y0 + int(blockIdx.y * blockDim.y + threadIdx.y);
    if (i >= box.x1 || j >= box.y1) return;
    const int k_first = box.z0 + int(blockIdx.z) * window;
    slab_cells<R, T>(p, out, vel, box, c, sponge, i, j, k_first, min(k_first + window, box.z1),
                     SinksAt<T>{sinks}, SourceAt<T>{source});
}

// A table of slabs on the interior's z-walking tile (SlabKernel::Tile), in
// the same way.
template <int R, class T, int Rows, bool SyncApron>
__global__ void __launch_bounds__(256) STENCIL_MAX_REGISTERS((kRegisterCap<R, T, true, Rows>))
    wave_table_kernel(FieldView<const T> p, FieldView<T> out, FieldView<const T> vel,
                      WaveTable table, Coefficients<R, T> c, Sponge sponge, FaceSinks<T> sinks) {
    const TablePlace place = locate_block(table, blockIdx.x);
    const TableBox& e = place.entry;
    const int tx = int(threadIdx.x) % e.block_x, ty = int(threadIdx.x) / e.block_x;
    fused_walk<R, T, true, Rows, SyncApron, SinkStores::AfterWalk>(
        p, out, vel, e.box, c, sponge, e.groups, e.window,
        {e.block_x, e.block_y, tx, ty, place.bx, place.by, place.bz}, &sinks);
}

// The table kernel for a table's rows per thread; staged synchronously if
// any of its boxes' shapes needs it (correct for all, as in the one-box
// kernel's choice).
template <int R, class T, int Rows>
auto wave_table_kernel_with_rows(bool sync_apron) {
    return sync_apron ? wave_table_kernel<R, T, Rows, true> : wave_table_kernel<R, T, Rows, false>;
}

template <int R, class T>
auto wave_table_kernel_for(const WaveTable& table) {
    constexpr int max_rows = max_fused_rows(R, FusedKernel::Wave);
    bool sync_apron = false;
    for (int e = 0; e < table.count; ++e) {
        const TableBox& b = table.box[e];
        sync_apron = sync_apron || device::apron_slots<R, T>(b.block_x, table.rows * b.block_y) >
                                       kApronPrefetch * table.threads;
    }
    switch (table.rows) {
    case 2:
        if constexpr (max_rows >= 2) return wave_table_kernel_with_rows<R, T, 2>(sync_apron);
        break;
    case 4:
        if constexpr (max_rows >= 4) return wave_table_kernel_with_rows<R, T, 4>(sync_apron);
        break;
    case 8:
        if constexpr (max_rows >= 8) return wave_table_kernel_with_rows<R, T, 8>(sync_apron);
        break;
    default:
        break;
    }
    return wave_table_kernel_with_rows<R, T, 1>(sync_apron);
}

template <int R, class T>
std::size_t slab_lds_bytes(int block_x, int block_y) {
    return 2 * std::size_t(block_y + 2 * R) * std::size_t(block_x) * 16;
}

// Blocks of the slab kernel the device holds at once. Asked here, inside
// this file's unnamed namespace: hipcc 5.2 left the kernel's host stub
// undefined where a function outside it took the kernel's address.
template <int R, class T>
long long slab_resident_blocks(int block_x, int block_y) {
    return resident_blocks(reinterpret_cast<const void*>(slab_table_kernel<R, T>), kSlabThreads,
                           slab_lds_bytes<R, T>(block_x, block_y));
}

// Blocks of the cells body the device holds at once, for `threads` a block.
template <int R, class T>
long long cell_resident_blocks(int threads) {
    return resident_blocks(reinterpret_cast<const void*>(cell_box_kernel<R, T>), threads, 0);
}

template <int R, class T>
void launch_cell_box(FieldView<const T> p, FieldView<T> p_prev, FieldView<const T> vel,
                     const Box& box, const LaunchShape& t, const Coefficients<R, T>& c,
                     const Sponge& sponge, Stream& stream, const FaceSinks<T>* sinks,
                     SourceInLaunch<T> source) {
    const auto g = GroupLaunch::of<T>(p.layout, box, t, t.window);
    cell_box_kernel<R, T><<<g.grid, g.block, 0, stream.handle()>>>(
        p, p_prev, vel, box, g.groups, t.window, c, sponge, sinks, source);
    GPU_CHECK_LAUNCH();
}

// The LDS a table's launch needs: the most any of its boxes asks for.
template <class BoxBytes>
std::size_t largest_lds(const WaveTable& table, BoxBytes bytes_of) {
    std::size_t lds = 0;
    for (int e = 0; e < table.count; ++e)
        lds = std::max(lds, bytes_of(table.box[e]));
    return lds;
}

template <int R, class T>
void launch_tile_table(FieldView<const T> p, FieldView<T> p_prev, FieldView<const T> vel,
                       const WaveTable& table, const Coefficients<R, T>& c, const Sponge& sponge,
                       Stream& stream, const FaceSinks<T>& sinks) {
    const std::size_t lds = largest_lds(table, [&](const TableBox& b) {
        return fused_lds_bytes<R, T>(LaunchShape{b.block_x, b.block_y, b.window, table.rows});
    });
    wave_table_kernel_for<R, T>(
        table)<<<unsigned(table.blocks), table.threads, lds, stream.handle()>>>(
        p, p_prev, vel, table, c, sponge, sinks);
    GPU_CHECK_LAUNCH();
}

template <int R, class T>
void launch_slab_table(FieldView<const T> p, FieldView<T> p_prev, FieldView<const T> vel,
                       const WaveTable& table, const Coefficients<R, T>& c, const Sponge& sponge,
                       Stream& stream, const FaceSinks<T>& sinks) {
    const std::size_t lds = largest_lds(table, [](const TableBox& b) {
        if (b.block_x * b.block_y > kSlabThreads ||
            2 * R * b.block_x > kSlabApronPerThread * kSlabThreads)
            fatal("slab kernel: a block of " + std::to_string(b.block_x) + " x " +
                  std::to_string(b.block_y) + " is beyond its " + std::to_string(kSlabThreads) +
                  " threads or its LDS apron at R=" + std::to_string(R));
        return slab_lds_bytes<R, T>(b.block_x, b.block_y);
    });
    slab_table_kernel<R, T><<<unsigned(table.blocks), kSlabThreads, lds, stream.handle()>>>(
        p, p_prev, vel, table, c, sponge, sinks);
    GPU_CHECK_LAUNCH();
}

template <int R, class T>
void launch_cell_table(FieldView<const T> p, FieldView<T> p_prev, FieldView<const T> vel,
                       const WaveTable& table, const Coefficients<R, T>& c, const Sponge& sponge,
                       Stream& stream, const FaceSinks<T>& sinks) {
    cell_table_kernel<R, T><<<unsigned(table.blocks), kSlabThreads, 0, stream.handle()>>>(
        p, p_prev, vel, table, c, sponge, sinks);
    GPU_CHECK_LAUNCH();
}

} // namespace
} // namespace stencil::detail

namespace stencil {

namespace {

// The cells body's shape over `box`, its window by cell_window unless
// `requested` names one.
template <int R, class T>
LaunchShape cell_shape(const LaunchShape& requested, const Layout& layout, const Box& box) {
    LaunchShape t = cell_body_shape(requested, layout, box, precision_of<T>());
    if (t.window == 0 && !box.empty()) {
        const auto g = detail::GroupLaunch::of<T>(layout, box, t, 1);
        t.window = cell_window((long long)g.grid.x * g.grid.y, box.nz(),
                               detail::cell_resident_blocks<R, T>(t.block_x * t.block_y));
    }
    if (t.window == 0) t.window = 1;
    if (const std::string why = fits(t, R, precision_of<T>(), FusedKernel::Wave); !why.empty())
        fatal("launch shape: " + why);
    return t;
}

} // namespace

template <int R, class T>
LaunchShape wave_shape(const LaunchShape& requested, const Layout& layout, const Box& box) {
    if (wave_body_for(requested, box.cells()) == WaveBody::Cells)
        return cell_shape<R, T>(requested, layout, box);
    LaunchShape t = detail::checked_shape<T>(requested, R, FusedKernel::Wave);
    t.body = WaveBody::Tile;
    if (box.empty()) return t;
    if (requested.block_x == 0 && requested.block_y == 0)
        t = fit_block_to_box(t, XGroups::of(layout, box.x0, box.x1, device::kLanes<T>).count);
    if (requested.window != 0) return t;
    const auto g = detail::GroupLaunch::of<T>(layout, box, t, t.window, t.rows);
    const auto kernel = detail::fused_kernel_for<R, T, true>(t);
    const long long resident =
        detail::resident_blocks(reinterpret_cast<const void*>(kernel), t.block_x * t.block_y,
                                detail::fused_lds_bytes<R, T>(t));
    t.window = auto_wave_window((long long)g.grid.x * g.grid.y, box.nz(), resident, R);
    return t;
}

template <int R, class T>
void launch_wave_step(FieldView<const T> p, FieldView<T> p_prev, FieldView<const T> vel,
                      const Box& box, const Coefficients<R, T>& c, const Sponge& sponge,
                      Stream& stream, const LaunchShape& shape, const FaceSinks<T>* sinks,
                      SourceInLaunch<T> source) {
    if (box.empty()) return;
    const LaunchShape t = wave_shape<R, T>(shape, p.layout, box);
    if (source && t.planes_ahead() == 2)
        fatal("the update adds the source with one plane of loads in flight, not with " +
              shape_summary(t));
    if (t.body == WaveBody::Cells)
        detail::launch_cell_box<R, T>(p, p_prev, vel, box, t, c, sponge, stream, sinks, source);
    else if (sinks)
        detail::launch_stored_wave<R, T>(p, p_prev, vel, box, c, sponge, stream, t, sinks, source);
    else
        detail::launch_fused<R, T, true>(p, p_prev, vel, box, c, sponge, stream, t, source);
}

template <int R, class T>
LaunchShape slab_shape(const Layout& layout, const Box& box, SlabKernel kernel, int window) {
    if (kernel == SlabKernel::Tile)
        return wave_shape<R, T>(LaunchShape{0, 0, window}.on_tile(), layout, box);
    if (kernel == SlabKernel::Cells) {
        LaunchShape t = cell_slab_block(layout, box, precision_of<T>());
        if (window > 0) t.window = window;
        return t;
    }
    LaunchShape t = slab_block(layout, box, R, precision_of<T>());
    if (window > 0) t.window = window;
    if (t.window > 0 || box.empty()) return t;
    const XGroups g = XGroups::of(layout, box.x0, box.x1, kLanes<T>);
    const long long per_layer = (long long)((g.count + t.block_x - 1) / t.block_x) *
                                ((box.ny() + t.block_y - 1) / t.block_y);
    const long long resident = detail::slab_resident_blocks<R, T>(t.block_x, t.block_y);
    t.window = slab_window(per_layer, box.nz(), resident);
    return t;
}

template <int R, class T>
void launch_wave_boxes(FieldView<const T> p, FieldView<T> p_prev, FieldView<const T> vel,
                       const std::vector<WaveTable>& tables, const Coefficients<R, T>& c,
                       const Sponge& sponge, Stream& stream, const FaceSinks<T>& sinks) {
    for (const WaveTable& table : tables) {
        if (table.blocks == 0) continue;
        if (table.kernel == SlabKernel::Tile)
            detail::launch_tile_table<R, T>(p, p_prev, vel, table, c, sponge, stream, sinks);
        else if (table.kernel == SlabKernel::Cells)
            detail::launch_cell_table<R, T>(p, p_prev, vel, table, c, sponge, stream, sinks);
        else
            detail::launch_slab_table<R, T>(p, p_prev, vel, table, c, sponge, stream, sinks);
    }
}

STENCIL_FOR_EACH_RADIUS_AND_TYPE(STENCIL_INSTANTIATE_WAVE)

} // namespace stencil
