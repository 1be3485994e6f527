// GPU implementations of field_ops.hpp. The faces are thin (R cells) in one
// direction, so each kernel maps one thread to one cell of the face, x
// fastest, over a flat index: simple, coalesced for y and z faces, and short.
#include "device_vec.hpp"
#include "field_ops.hpp"
#include "gpu_launch.hpp"
#include "memory.hpp"

namespace stencil {
namespace {

enum class FaceOp { Pack, Unpack, Fill };

// One thread per cell over every box of the table (grid-stride).
template <FaceOp Op, class T>
__global__ void __launch_bounds__(256)
    face_kernel(FieldView<T> field, FaceTable<T> faces, T value) {
    const long long n = faces.cells();
    for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < n;
         t += (long long)gridDim.x * blockDim.x) {
        const FaceCell c = locate_face_cell(faces, t);
        T& cell = field(c.i, c.j, c.k);
        if (Op == FaceOp::Pack) faces.buffer[c.face][c.item] = cell;
        if (Op == FaceOp::Unpack) cell = faces.buffer[c.face][c.item];
        if (Op == FaceOp::Fill) cell = value;
    }
}

template <FaceOp Op, class T>
void launch_face(FieldView<T> field, const FaceTable<T>& faces, T value, Stream& stream) {
    if (faces.cells() == 0) return;
    const unsigned blocks = unsigned(std::min<long long>((faces.cells() + 255) / 256, 65536));
    face_kernel<Op, T><<<blocks, 256, 0, stream.handle()>>>(field, faces, value);
    GPU_CHECK_LAUNCH();
}

// Sink blockIdx.y's box, one thread per cell (grid-stride along x).
template <class T>
__global__ void __launch_bounds__(256)
    store_faces_kernel(FieldView<const T> field, FaceSinks<T> sinks) {
    const Box b = sinks.box[blockIdx.y];
    const long long n = (long long)b.nx() * b.ny() * b.nz();
    for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < n;
         t += (long long)gridDim.x * blockDim.x) {
        const int i = b.x0 + int(t % b.nx());
        const int j = b.y0 + int((t / b.nx()) % b.ny());
        const int k = b.z0 + int(t / ((long long)b.nx() * b.ny()));
        *sinks.at(int(blockIdx.y), i, j, k) = field(i, j, k);
    }
}

template <class T>
__global__ void add_source_kernel(SourceCells<T> cells, RickerSource source,
                                  const long long* steps_in, long long* steps_out) {
    const long long n = *steps_in;
    const T amplitude = T(source.amplitude(n));
    // Unrolled over the whole array: constant indices keep `cells` in the
    // kernel's parameters instead of a copy in local memory.
#pragma unroll
    for (int c = 0; c < SourceCells<T>::kMax; ++c)
        if (c < cells.count) *cells.cell[c] += amplitude;
    *steps_out = n + 1;
}

template <class T>
__global__ void __launch_bounds__(256)
    count_nonfinite_kernel(FieldView<const T> field, Box box, unsigned long long* count) {
    const long long n = (long long)box.nx() * box.ny() * box.nz();
    unsigned long long mine = 0;
    for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < n;
         t += (long long)gridDim.x * blockDim.x) {
        const int i = box.x0 + int(t % box.nx());
        const int j = box.y0 + int((t / box.nx()) % box.ny());
        const int k = box.z0 + int(t / ((long long)box.nx() * box.ny()));
        mine += !isfinite(field(i, j, k));
    }
    if (mine) atomicAdd(count, mine);
}

template <class T>
__global__ void gather_cells_kernel(const T* origin, const std::size_t* offsets, int count,
                                    double* out) {
    const int n = blockIdx.x * blockDim.x + threadIdx.x;
    if (n < count) out[n] = origin[offsets[n]];
}

// Pack only reads the field; the kernel is shared, so drop const here once.
template <class T>
FieldView<T> writable(FieldView<const T> v) {
    return {const_cast<T*>(v.origin), v.layout};
}

} // namespace

template <class T>
void launch_pack_faces(FieldView<const T> field, const FaceTable<T>& faces, Stream& stream) {
    launch_face<FaceOp::Pack>(writable(field), faces, T(0), stream);
}

template <class T>
void launch_unpack_faces(FieldView<T> field, const FaceTable<T>& faces, Stream& stream) {
    launch_face<FaceOp::Unpack>(field, faces, T(0), stream);
}

template <class T>
void launch_fill_faces(FieldView<T> field, const FaceTable<T>& faces, T value, Stream& stream) {
    launch_face<FaceOp::Fill>(field, faces, value, stream);
}

template <class T>
void launch_store_faces(FieldView<const T> field, const FaceSinks<T>& sinks, Stream& stream) {
    if (sinks.count == 0) return;
    std::size_t largest = 0;
    for (int s = 0; s < sinks.count; ++s)
        largest = std::max(largest, sinks.box[s].cells());
    const unsigned blocks = unsigned(std::min<std::size_t>((largest + 255) / 256, 4096));
    store_faces_kernel<<<dim3(blocks, unsigned(sinks.count)), 256, 0, stream.handle()>>>(field,
                                                                                         sinks);
    GPU_CHECK_LAUNCH();
}

template <class T>
void launch_add_source(const SourceCells<T>& cells, const RickerSource& source,
                       const long long* steps_in, long long* steps_out, Stream& stream) {
    add_source_kernel<<<1, 1, 0, stream.handle()>>>(cells, source, steps_in, steps_out);
    GPU_CHECK_LAUNCH();
}

template <class T>
void launch_gather_cells(FieldView<const T> field, const std::size_t* offsets, int count,
                         double* out, Stream& stream) {
    if (count <= 0) return;
    gather_cells_kernel<<<(count + 255) / 256, 256, 0, stream.handle()>>>(field.origin, offsets,
                                                                          count, out);
    GPU_CHECK_LAUNCH();
}

template <class T>
void launch_count_nonfinite(FieldView<const T> field, const Box& box, unsigned long long* counter,
                            unsigned long long* count, Stream& stream) {
    *count = 0; // the pinned word, read by no copy in flight (the caller waited for the last)
    copy_async(counter, count, sizeof *count, stream);
    if (box.empty()) return;
    const unsigned blocks = unsigned(std::min<std::size_t>((box.cells() + 255) / 256, 4096));
    count_nonfinite_kernel<<<blocks, 256, 0, stream.handle()>>>(field, box, counter);
    GPU_CHECK_LAUNCH();
    copy_async(count, counter, sizeof *count, stream);
}

STENCIL_INSTANTIATE_FIELD_OPS(float)
STENCIL_INSTANTIATE_FIELD_OPS(double)

} // namespace stencil
