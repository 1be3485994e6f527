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

template <FaceOp Op, class T>
__global__ void __launch_bounds__(256)
    face_kernel(FieldView<T> field, Box face, T* buffer, T value) {
    const long long n = (long long)face.nx() * face.ny() * face.nz();
    for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < n;
         t += (long long)gridDim.x * blockDim.x) {
        const int i = face.x0 + int(t % face.nx());
        const int j = face.y0 + int((t / face.nx()) % face.ny());
        const int k = face.z0 + int(t / ((long long)face.nx() * face.ny()));
        T& cell = field(i, j, k);
        if (Op == FaceOp::Pack) buffer[t] = cell;
        if (Op == FaceOp::Unpack) cell = buffer[t];
        if (Op == FaceOp::Fill) cell = value;
    }
}

template <FaceOp Op, class T>
void launch_face(FieldView<T> field, const Box& face, T* buffer, T value, Stream& stream) {
    if (face.empty()) return;
    const unsigned blocks = unsigned(std::min<std::size_t>((face.cells() + 255) / 256, 65536));
    face_kernel<Op, T><<<blocks, 256, 0, stream.handle()>>>(field, face, buffer, value);
    GPU_CHECK_LAUNCH();
}

template <class T>
__global__ void add_at_kernel(T* cell, T value) {
    *cell += value;
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
void launch_pack(FieldView<const T> field, const Box& face, T* buffer, Stream& stream) {
    launch_face<FaceOp::Pack>(writable(field), face, buffer, T(0), stream);
}

template <class T>
void launch_unpack(const T* buffer, FieldView<T> field, const Box& face, Stream& stream) {
    launch_face<FaceOp::Unpack>(field, face, const_cast<T*>(buffer), T(0), stream);
}

template <class T>
void launch_fill(FieldView<T> field, const Box& box, T value, Stream& stream) {
    launch_face<FaceOp::Fill>(field, box, static_cast<T*>(nullptr), value, stream);
}

template <class T>
void launch_add_at(FieldView<T> field, int i, int j, int k, T value, Stream& stream) {
    add_at_kernel<<<1, 1, 0, stream.handle()>>>(field.ptr(i, j, k), value);
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
std::size_t count_nonfinite(FieldView<const T> field, const Box& box, unsigned long long* counter,
                            Stream& stream) {
    if (box.empty()) return 0;
    unsigned long long result = 0;
    copy_async(counter, &result, sizeof result, stream);
    const unsigned blocks = unsigned(std::min<std::size_t>((box.cells() + 255) / 256, 4096));
    count_nonfinite_kernel<<<blocks, 256, 0, stream.handle()>>>(field, box, counter);
    GPU_CHECK_LAUNCH();
    copy_async(&result, counter, sizeof result, stream);
    stream.synchronize();
    return std::size_t(result);
}

STENCIL_INSTANTIATE_FIELD_OPS(float)
STENCIL_INSTANTIATE_FIELD_OPS(double)

} // namespace stencil
