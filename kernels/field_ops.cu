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

template <FaceOp Op>
__global__ void __launch_bounds__(256)
    face_kernel(FieldView<float> field, Box face, float* buffer, float value) {
    const long long n = (long long)face.nx() * face.ny() * face.nz();
    for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < n;
         t += (long long)gridDim.x * blockDim.x) {
        const int i = face.x0 + int(t % face.nx());
        const int j = face.y0 + int((t / face.nx()) % face.ny());
        const int k = face.z0 + int(t / ((long long)face.nx() * face.ny()));
        float& cell = field(i, j, k);
        if (Op == FaceOp::Pack) buffer[t] = cell;
        if (Op == FaceOp::Unpack) cell = buffer[t];
        if (Op == FaceOp::Fill) cell = value;
    }
}

template <FaceOp Op>
void launch_face(FieldView<float> field, const Box& face, float* buffer, float value,
                 Stream& stream) {
    if (face.empty()) return;
    const unsigned blocks = unsigned(std::min<std::size_t>((face.cells() + 255) / 256, 65536));
    face_kernel<Op><<<blocks, 256, 0, stream.handle()>>>(field, face, buffer, value);
    GPU_CHECK_LAUNCH();
}

__global__ void add_at_kernel(float* cell, float value) {
    *cell += value;
}

__global__ void __launch_bounds__(256)
    count_nonfinite_kernel(FieldView<const float> field, Box box, unsigned long long* count) {
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

__global__ void gather_cells_kernel(const float* origin, const std::size_t* offsets, int count,
                                    float* out) {
    const int n = blockIdx.x * blockDim.x + threadIdx.x;
    if (n < count) out[n] = origin[offsets[n]];
}

// Pack only reads the field; the kernel is shared, so drop const here once.
FieldView<float> writable(FieldView<const float> v) {
    return {const_cast<float*>(v.origin), v.layout};
}

} // namespace

void launch_pack(FieldView<const float> field, const Box& face, float* buffer, Stream& stream) {
    launch_face<FaceOp::Pack>(writable(field), face, buffer, 0.0f, stream);
}

void launch_unpack(const float* buffer, FieldView<float> field, const Box& face, Stream& stream) {
    launch_face<FaceOp::Unpack>(field, face, const_cast<float*>(buffer), 0.0f, stream);
}

void launch_fill(FieldView<float> field, const Box& box, float value, Stream& stream) {
    launch_face<FaceOp::Fill>(field, box, nullptr, value, stream);
}

void launch_add_at(FieldView<float> field, int i, int j, int k, float value, Stream& stream) {
    add_at_kernel<<<1, 1, 0, stream.handle()>>>(field.ptr(i, j, k), value);
    GPU_CHECK_LAUNCH();
}

void launch_gather_cells(FieldView<const float> field, const std::size_t* offsets, int count,
                         float* out, Stream& stream) {
    if (count <= 0) return;
    gather_cells_kernel<<<(count + 255) / 256, 256, 0, stream.handle()>>>(field.origin, offsets,
                                                                          count, out);
    GPU_CHECK_LAUNCH();
}

std::size_t count_nonfinite(FieldView<const float> field, const Box& box,
                            unsigned long long* counter, Stream& stream) {
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

} // namespace stencil
