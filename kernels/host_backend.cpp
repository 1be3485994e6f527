// The HOST back-end's implementation of stencil.hpp: the host operators in
// the run's precision. It has one technique per operator (OpenMP loops), so it offers the
// baseline per-direction variants and the fused Laplacian only.
#include "field_ops.hpp"
#include "host_denormals.hpp"
#include "host_operators.hpp"
#include "stencil.hpp"
#include "step_counts.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <thread>

namespace stencil {

template <int R, class T>
void launch_derivative(Variant variant, FieldView<const T> in, FieldView<T> out, const Box& box,
                       const Coefficients<R, T>& c, Stream& stream, const LaunchShape& shape) {
    (void)stream;
    (void)shape;
    if (box.empty()) return;
    flush_denormals_on_host_threads();
    switch (variant) {
    case Variant::BaselineX:
        return host_second_derivative<R>(Axis::X, in, out, box, c.x);
    case Variant::BaselineY:
        return host_second_derivative<R>(Axis::Y, in, out, box, c.y);
    case Variant::BaselineZ:
        return host_second_derivative<R>(Axis::Z, in, out, box, c.z);
    case Variant::FusedXYZ:
        return host_laplacian<R>(in, out, box, c);
    default:
        fatal(std::string("variant ") + variant_name(variant) + " is not available on HOST");
    }
}

namespace {

// The source the update adds (source.hpp), after the loops and before the
// sinks' copies: the one addition the GPU's threads make to the same value,
// as they store a group (the cells body) or after the walk (the tile).
template <class T>
void add_source_in_update(FieldView<T> p_prev, const SourceInUpdate<T>& source) {
    if (!source.steps_out) return;
    for (int c = 0; c < source.count; ++c) {
        T one[1] = {p_prev(source.cell[c][0], source.cell[c][1], source.cell[c][2])};
        source.add_to(one, source.cell[c][0], source.cell[c][1], source.cell[c][2]);
        p_prev(source.cell[c][0], source.cell[c][1], source.cell[c][2]) = one[0];
    }
    *source.steps_out = *source.steps_in + 1;
}

} // namespace

template <int R, class T>
void launch_wave_step(FieldView<const T> p, FieldView<T> p_prev, FieldView<const T> vel,
                      const Box& box, const Coefficients<R, T>& c, const Sponge& sponge,
                      Stream& stream, const LaunchShape& shape, const FaceSinks<T>* sinks,
                      SourceInLaunch<T> source) {
    (void)stream;
    flush_denormals_on_host_threads();
    if (box.empty()) return;
    // The same refusal as the GPU's, so that the step's logic is tested here.
    const LaunchShape t = wave_shape<R, T>(shape, p.layout, box);
    if (source && t.planes_ahead() == 2)
        fatal("the update adds the source with one plane of loads in flight, not with " +
              shape_summary(t));
    host_wave_step<R>(p, p_prev, vel, box, c, sponge);
    if (source) add_source_in_update(p_prev, *source.table);
    if (sinks) sinks->copy(p_prev, box); // "device" memory is the host's here
}

// The same tables the GPU launches, walked block by block through the same
// mapping (locate_block, tile_cells), so that a hole or an overlap in it
// fails the HOST tests too; each tile stores its own cells into the sinks,
// as the GPU's blocks do. Parallel over blocks: the loops inside a tile
// then run serially (OpenMP does not nest by default).
template <int R, class T>
void launch_wave_boxes(FieldView<const T> p, FieldView<T> p_prev, FieldView<const T> vel,
                       const std::vector<WaveTable>& tables, const Coefficients<R, T>& c,
                       const Sponge& sponge, Stream&, const FaceSinks<T>& sinks) {
    flush_denormals_on_host_threads();
    for (const WaveTable& table : tables) {
#pragma omp parallel for schedule(dynamic)
        for (long long block = 0; block < table.blocks; ++block) {
            const Box tile = tile_cells(locate_block(table, block), kLanes<T>, table.rows);
            if (tile.empty()) continue;
            host_wave_step<R>(p, p_prev, vel, tile, c, sponge);
            sinks.copy(p_prev, tile);
        }
    }
}

template <int R, class T>
LaunchShape wave_shape(const LaunchShape& requested, const Layout& layout, const Box& box) {
    // The host loops have no launch shape; this is what a GPU would default
    // to, with the GPU's choice of body, so that the step adds the source
    // where a GPU's would (WaveBody::Cells).
    if (wave_body_for(requested, box.cells()) != WaveBody::Cells) {
        LaunchShape t = resolve_shape(requested, R, precision_of<T>(), FusedKernel::Wave);
        t.body = WaveBody::Tile;
        return t;
    }
    LaunchShape t = cell_body_shape(requested, layout, box, precision_of<T>());
    t.window = t.window ? t.window : 1;
    if (const std::string why = fits(t, R, precision_of<T>(), FusedKernel::Wave); !why.empty())
        fatal("launch shape: " + why);
    return t;
}

template <int R, class T>
LaunchShape slab_shape(const Layout& layout, const Box& box, SlabKernel kernel, int window) {
    if (kernel == SlabKernel::Tile)
        return wave_shape<R, T>(LaunchShape{0, 0, window}.on_tile(), layout, box);
    LaunchShape t = kernel == SlabKernel::Cells ? cell_slab_block(layout, box, precision_of<T>())
                                                : slab_block(layout, box, R, precision_of<T>());
    if (window > 0) t.window = window;
    // No device to fill: the longest window a GPU would walk.
    if (t.window == 0) t.window = slab_window(1, box.nz(), 0);
    return t;
}

template <class T>
void launch_copy(const T* src, T* dst, std::size_t count, Stream& stream) {
    (void)stream;
    // Split across threads as the stencil loops are, so the ratio compares like with like.
#pragma omp parallel for schedule(static)
    for (std::size_t block = 0; block < (count + 4095) / 4096; ++block) {
        const std::size_t begin = block * 4096, n = std::min<std::size_t>(4096, count - begin);
        std::memcpy(dst + begin, src + begin, n * sizeof(T));
    }
}

STENCIL_FOR_EACH_RADIUS_AND_TYPE(STENCIL_INSTANTIATE_DERIVATIVE)
STENCIL_FOR_EACH_RADIUS_AND_TYPE(STENCIL_INSTANTIATE_WAVE)
template void launch_copy<float>(const float*, float*, std::size_t, Stream&);
template void launch_copy<double>(const double*, double*, std::size_t, Stream&);

} // namespace stencil

// ---- field_ops.hpp ---------------------------------------------------------

namespace stencil {
namespace {

// Visits every cell of the table through the same flat-index mapping the
// GPU kernel takes (locate_face_cell), so a hole or an overlap in that
// mapping shows up in the HOST tests too.
template <class T, class F>
void for_each_table_cell(const FaceTable<T>& faces, F&& f) {
    const long long n = faces.cells();
#pragma omp parallel for schedule(static)
    for (long long t = 0; t < n; ++t)
        f(locate_face_cell(faces, t));
}

} // namespace

template <class T>
void launch_pack_faces(FieldView<const T> field, const FaceTable<T>& faces, Stream&) {
    for_each_table_cell(
        faces, [&](const FaceCell& c) { faces.buffer[c.face][c.item] = field(c.i, c.j, c.k); });
}

template <class T>
void launch_unpack_faces(FieldView<T> field, const FaceTable<T>& faces, Stream&) {
    for_each_table_cell(
        faces, [&](const FaceCell& c) { field(c.i, c.j, c.k) = faces.buffer[c.face][c.item]; });
}

template <class T>
void launch_fill_faces(FieldView<T> field, const FaceTable<T>& faces, T value, Stream&) {
    for_each_table_cell(faces, [&](const FaceCell& c) { field(c.i, c.j, c.k) = value; });
}

template <class T>
void launch_store_faces(FieldView<const T> field, const FaceSinks<T>& sinks, Stream&) {
    for (int s = 0; s < sinks.count; ++s)
        sinks.copy(field, sinks.box[s]);
}

template <class T>
void launch_add_source(const SourceCells<T>& cells, const RickerSource& source,
                       const long long* steps_in, long long* steps_out, Stream&) {
    flush_denormals_on_host_threads();
    const T amplitude = T(source.amplitude(*steps_in));
    for (int c = 0; c < cells.count; ++c)
        *cells.cell[c] += amplitude;
    *steps_out = *steps_in + 1;
}

template <class T>
void launch_gather_cells(FieldView<const T> field, const std::size_t* offsets, int count,
                         double* out, Stream&) {
    for (int n = 0; n < count; ++n)
        out[n] = field.origin[offsets[n]];
}

template <class T>
void launch_count_nonfinite(FieldView<const T> field, const Box& box, unsigned long long*,
                            unsigned long long* count_out, Stream&) {
    unsigned long long count = 0;
    if (!box.empty()) {
#pragma omp parallel for collapse(2) reduction(+ : count) schedule(static)
        for (int k = box.z0; k < box.z1; ++k)
            for (int j = box.y0; j < box.y1; ++j)
                for (int i = box.x0; i < box.x1; ++i)
                    count += !std::isfinite(field(i, j, k));
    }
    *count_out = count;
}

STENCIL_INSTANTIATE_FIELD_OPS(float)
STENCIL_INSTANTIATE_FIELD_OPS(double)

// ---- step_counts.hpp ------------------------------------------------------------
// The counts live in an MPI shared-memory window; release and acquire order
// the faces stored before a raise (by every OpenMP thread, joined at the
// end of the update's parallel loop) before the count, as the GPU's system
// fences do.

void launch_raise_step_counts(const StepCountLinks& links, Stream&) {
    const unsigned finished = *links.own + 1;
    *links.own = finished;
    for (int s = 0; s < links.count; ++s)
        __atomic_store_n(links.raise[s], finished, __ATOMIC_RELEASE);
}

void launch_await_step_counts(const StepCountLinks& links, Stream&) {
    const unsigned finished = *links.own;
    for (int s = 0; s < links.count; ++s)
        while (__atomic_load_n(links.incoming[s], __ATOMIC_ACQUIRE) < finished)
            std::this_thread::yield(); // ranks may share cores
}

void launch_delay(int microseconds, Stream&) {
    std::this_thread::sleep_for(std::chrono::microseconds(microseconds));
}

} // namespace stencil
