// Per-direction second-derivative kernels, from the yardstick to the
// optimised forms. One source, compiled as HIP or CUDA.
//
//   baseline   one thread per cell, 2R+1 global loads per cell
//   vector x   4 cells per thread; whole aligned 16-byte groups into a
//              register window, so neighbours come from registers
//   LDS y      a block stages its rows plus R halo rows above and below in
//              LDS; each row is read from memory once per block
//   window z   a thread walks `window` planes, keeping 2R+1 planes of its
//              4-cell column in registers: one new load per plane
#include "device_vec.hpp"
#include "gpu_launch.hpp"

namespace stencil::detail {
using device::load4;
using device::store4_masked;
using device::Vec4;
using device::XGroups;

namespace {

constexpr int kBaselineX = 64, kBaselineY = 4;

// The axis is a template parameter so that the weights are read straight
// from the kernel's parameter space; selecting the array at run time would
// take its address and push the parameters into local memory.
template <int R, Axis A>
__global__ void __launch_bounds__(kBaselineX* kBaselineY)
    baseline_kernel(FieldView<const float> in, FieldView<float> out, Box box,
                    Coefficients<R, float> c) {
    const int i = box.x0 + int(threadIdx.x + blockIdx.x * blockDim.x);
    const int j = box.y0 + int(threadIdx.y + blockIdx.y * blockDim.y);
    const int k = box.z0 + int(blockIdx.z);
    if (i >= box.x1 || j >= box.y1) return;
    const float* w = A == Axis::X ? c.x : A == Axis::Y ? c.y : c.z;
    const long long stride = A == Axis::X   ? 1
                             : A == Axis::Y ? in.layout.line
                                            : (long long)in.layout.slice;
    const float* p = in.ptr(i, j, k);
    float acc = w[0] * p[0];
#pragma unroll
    for (int r = 1; r <= R; ++r)
        acc = add_pair(acc, w[r], p[-r * stride], p[r * stride]);
    *out.ptr(i, j, k) = acc;
}

template <int R>
__global__ void __launch_bounds__(256)
    vector_x_kernel(FieldView<const float> in, FieldView<float> out, Box box,
                    Coefficients<R, float> c, XGroups groups) {
    constexpr int G = device::kHaloGroups<R>;
    const int g = int(threadIdx.x + blockIdx.x * blockDim.x);
    const int j = box.y0 + int(threadIdx.y + blockIdx.y * blockDim.y);
    const int k = box.z0 + int(blockIdx.z);
    if (g >= groups.count || j >= box.y1) return;
    const int i = groups.first + 4 * g;
    const float* p = in.ptr(i, j, k);

    float xr[4 * (2 * G + 1)]; // the vector and G groups either side
#pragma unroll
    for (int s = 0; s < 2 * G + 1; ++s) {
        const Vec4 v = load4(p + 4 * (s - G));
#pragma unroll
        for (int q = 0; q < 4; ++q)
            xr[4 * s + q] = v.v[q];
    }
    Vec4 result;
#pragma unroll
    for (int q = 0; q < 4; ++q) {
        const int centre = 4 * G + q;
        float acc = c.x[0] * xr[centre];
#pragma unroll
        for (int r = 1; r <= R; ++r)
            acc = add_pair(acc, c.x[r], xr[centre - r], xr[centre + r]);
        result.v[q] = acc;
    }
    store4_masked(out.ptr(i, j, k), i, box.x0, box.x1, result);
}

template <int R>
__global__ void __launch_bounds__(256)
    lds_y_kernel(FieldView<const float> in, FieldView<float> out, Box box, Coefficients<R, float> c,
                 XGroups groups) {
    extern __shared__ Vec4 tile[]; // (blockDim.y + 2R) rows of blockDim.x groups
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int g = tx + int(blockIdx.x * blockDim.x);
    const int j_first = box.y0 + int(blockIdx.y * blockDim.y);
    const int k = box.z0 + int(blockIdx.z);
    const int i = groups.first + 4 * g;

    // Stage rows j_first-R .. j_first+by+R-1. The loop, not one load per
    // thread, is what lets R exceed the block's height.
    const int rows = int(blockDim.y) + 2 * R;
    for (int row = ty; row < rows; row += blockDim.y) {
        const int j = j_first - R + row;
        if (g < groups.count && j < box.y1 + R)
            tile[row * blockDim.x + tx] = load4(in.ptr(i, j, k));
    }
    __syncthreads();

    const int j = j_first + ty;
    if (g >= groups.count || j >= box.y1) return;
    const Vec4* column = tile + (ty + R) * blockDim.x + tx;
    Vec4 result;
#pragma unroll
    for (int q = 0; q < 4; ++q) {
        float acc = c.y[0] * column[0].v[q];
#pragma unroll
        for (int r = 1; r <= R; ++r)
            acc = add_pair(acc, c.y[r], column[-r * int(blockDim.x)].v[q],
                           column[r * int(blockDim.x)].v[q]);
        result.v[q] = acc;
    }
    store4_masked(out.ptr(i, j, k), i, box.x0, box.x1, result);
}

template <int R>
__global__ void __launch_bounds__(256)
    window_z_kernel(FieldView<const float> in, FieldView<float> out, Box box,
                    Coefficients<R, float> c, XGroups groups, int window) {
    const int g = int(threadIdx.x + blockIdx.x * blockDim.x);
    const int j = box.y0 + int(threadIdx.y + blockIdx.y * blockDim.y);
    const int k_first = box.z0 + int(blockIdx.z) * window;
    const int k_last = min(k_first + window, box.z1);
    if (g >= groups.count || j >= box.y1) return;
    const int i = groups.first + 4 * g;
    const long long slice = (long long)in.layout.slice;
    const float* p = in.ptr(i, j, k_first);

    Vec4 w[2 * R + 1]; // planes k-R .. k+R of this thread's column
#pragma unroll
    for (int s = 0; s < 2 * R; ++s)
        w[s] = load4(p + (s - R) * slice);
    for (int k = k_first; k < k_last; ++k, p += slice) {
        w[2 * R] = load4(p + R * slice);
        Vec4 result;
#pragma unroll
        for (int q = 0; q < 4; ++q) {
            float acc = c.z[0] * w[R].v[q];
#pragma unroll
            for (int r = 1; r <= R; ++r)
                acc = add_pair(acc, c.z[r], w[R - r].v[q], w[R + r].v[q]);
            result.v[q] = acc;
        }
        store4_masked(out.ptr(i, j, k), i, box.x0, box.x1, result);
#pragma unroll
        for (int s = 0; s < 2 * R; ++s)
            w[s] = w[s + 1];
    }
}

} // namespace

template <int R>
void launch_baseline(Axis axis, FieldView<const float> in, FieldView<float> out, const Box& box,
                     const Coefficients<R, float>& c, Stream& stream) {
    if (box.empty()) return;
    const dim3 block(kBaselineX, kBaselineY);
    const dim3 grid(blocks_for(box.nx(), kBaselineX), blocks_for(box.ny(), kBaselineY), box.nz());
    if (axis == Axis::X)
        baseline_kernel<R, Axis::X><<<grid, block, 0, stream.handle()>>>(in, out, box, c);
    else if (axis == Axis::Y)
        baseline_kernel<R, Axis::Y><<<grid, block, 0, stream.handle()>>>(in, out, box, c);
    else
        baseline_kernel<R, Axis::Z><<<grid, block, 0, stream.handle()>>>(in, out, box, c);
    GPU_CHECK_LAUNCH();
}

template <int R>
void launch_vector_x(FieldView<const float> in, FieldView<float> out, const Box& box,
                     const Coefficients<R, float>& c, Stream& stream, const Tuning& requested) {
    if (box.empty()) return;
    const GroupLaunch g(in.layout, box, resolve_tuning(requested, R), 1);
    vector_x_kernel<R><<<g.grid, g.block, 0, stream.handle()>>>(in, out, box, c, g.groups);
    GPU_CHECK_LAUNCH();
}

template <int R>
void launch_lds_y(FieldView<const float> in, FieldView<float> out, const Box& box,
                  const Coefficients<R, float>& c, Stream& stream, const Tuning& requested) {
    if (box.empty()) return;
    const Tuning t = resolve_tuning(requested, R);
    const GroupLaunch g(in.layout, box, t, 1);
    const std::size_t lds = std::size_t(t.block_y + 2 * R) * t.block_x * sizeof(Vec4);
    lds_y_kernel<R><<<g.grid, g.block, lds, stream.handle()>>>(in, out, box, c, g.groups);
    GPU_CHECK_LAUNCH();
}

template <int R>
void launch_window_z(FieldView<const float> in, FieldView<float> out, const Box& box,
                     const Coefficients<R, float>& c, Stream& stream, const Tuning& requested) {
    if (box.empty()) return;
    const Tuning t = resolve_tuning(requested, R);
    const GroupLaunch g(in.layout, box, t, t.window);
    window_z_kernel<R>
        <<<g.grid, g.block, 0, stream.handle()>>>(in, out, box, c, g.groups, t.window);
    GPU_CHECK_LAUNCH();
}

#define STENCIL_INSTANTIATE_DIRECTIONAL(R)                                                         \
    template void launch_baseline<R>(Axis, FieldView<const float>, FieldView<float>, const Box&,   \
                                     const Coefficients<R, float>&, Stream&);                      \
    template void launch_vector_x<R>(FieldView<const float>, FieldView<float>, const Box&,         \
                                     const Coefficients<R, float>&, Stream&, const Tuning&);       \
    template void launch_lds_y<R>(FieldView<const float>, FieldView<float>, const Box&,            \
                                  const Coefficients<R, float>&, Stream&, const Tuning&);          \
    template void launch_window_z<R>(FieldView<const float>, FieldView<float>, const Box&,         \
                                     const Coefficients<R, float>&, Stream&, const Tuning&);
STENCIL_INSTANTIATE_DIRECTIONAL(1)
STENCIL_INSTANTIATE_DIRECTIONAL(2)
STENCIL_INSTANTIATE_DIRECTIONAL(3)
STENCIL_INSTANTIATE_DIRECTIONAL(4)
STENCIL_INSTANTIATE_DIRECTIONAL(5)
STENCIL_INSTANTIATE_DIRECTIONAL(6)
STENCIL_INSTANTIATE_DIRECTIONAL(7)
STENCIL_INSTANTIATE_DIRECTIONAL(8)

} // namespace stencil::detail
