// Per-direction second-derivative kernels, from the yardstick to the
// optimised forms. One source, compiled as HIP or CUDA.
//
//   baseline   one thread per cell, 2R+1 global loads per cell
//   vector x   a 16-byte group per thread (4 floats or 2 doubles); whole
//              aligned groups into a register window, so neighbours come
//              from registers
//   LDS y      a block stages its rows plus R halo rows above and below in
//              LDS; each row is read from memory once per block
//   window z   a thread walks `window` planes, keeping 2R+1 planes of its
//              group column in registers: one new load per plane
#include "device_vec.hpp"
#include "gpu_launch.hpp"

namespace stencil::detail {
using device::kLanes;
using device::load_vec;
using device::store_vec_masked;
using device::Vec;
using device::XGroups;

namespace {

constexpr int kBaselineX = 64, kBaselineY = 4;

// The axis is a template parameter so that the weights are read straight
// from the kernel's parameter space; selecting the array at run time would
// take its address and push the parameters into local memory.
template <int R, Axis A, class T>
__global__ void __launch_bounds__(kBaselineX* kBaselineY)
    baseline_kernel(FieldView<const T> in, FieldView<T> out, Box box, Coefficients<R, T> c) {
    const int i = box.x0 + int(threadIdx.x + blockIdx.x * blockDim.x);
    const int j = box.y0 + int(threadIdx.y + blockIdx.y * blockDim.y);
    const int k = box.z0 + int(blockIdx.z);
    if (i >= box.x1 || j >= box.y1) return;
    const T* w = A == Axis::X ? c.x : A == Axis::Y ? c.y : c.z;
    const long long stride = A == Axis::X   ? 1
                             : A == Axis::Y ? in.layout.line
                                            : (long long)in.layout.slice;
    const T* p = in.ptr(i, j, k);
    T acc = w[0] * p[0];
#pragma unroll
    for (int r = 1; r <= R; ++r)
        acc = add_pair(acc, w[r], p[-r * stride], p[r * stride]);
    *out.ptr(i, j, k) = acc;
}

template <int R, class T>
__global__ void __launch_bounds__(256)
    vector_x_kernel(FieldView<const T> in, FieldView<T> out, Box box, Coefficients<R, T> c,
                    XGroups groups) {
    constexpr int G = device::kHaloGroups<R, T>, L = kLanes<T>;
    const int g = int(threadIdx.x + blockIdx.x * blockDim.x);
    const int j = box.y0 + int(threadIdx.y + blockIdx.y * blockDim.y);
    const int k = box.z0 + int(blockIdx.z);
    if (g >= groups.count || j >= box.y1) return;
    const int i = groups.first + L * g;
    const T* p = in.ptr(i, j, k);

    T xr[L * (2 * G + 1)]; // the vector and G groups either side
    device::x_row<R>(xr, [&](int s) { return load_vec(p + L * (s - G)); });
    Vec<T> result;
#pragma unroll
    for (int q = 0; q < L; ++q) {
        const int centre = L * G + q;
        T acc = c.x[0] * xr[centre];
#pragma unroll
        for (int r = 1; r <= R; ++r)
            acc = add_pair(acc, c.x[r], xr[centre - r], xr[centre + r]);
        result.v[q] = acc;
    }
    store_vec_masked(out.ptr(i, j, k), i, box.x0, box.x1, result);
}

template <int R, class T>
__global__ void __launch_bounds__(256) lds_y_kernel(FieldView<const T> in, FieldView<T> out,
                                                    Box box, Coefficients<R, T> c, XGroups groups) {
    Vec<T>* tile = device::dynamic_lds<T>(); // (blockDim.y + 2R) rows of blockDim.x groups
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int g = tx + int(blockIdx.x * blockDim.x);
    const int j_first = box.y0 + int(blockIdx.y * blockDim.y);
    const int k = box.z0 + int(blockIdx.z);
    const int i = groups.first + kLanes<T> * g;

    // Stage rows j_first-R .. j_first+by+R-1. The loop, not one load per
    // thread, is what lets R exceed the block's height.
    const int rows = int(blockDim.y) + 2 * R;
    for (int row = ty; row < rows; row += blockDim.y) {
        const int j = j_first - R + row;
        if (g < groups.count && j < box.y1 + R)
            tile[row * blockDim.x + tx] = load_vec(in.ptr(i, j, k));
    }
    __syncthreads();

    const int j = j_first + ty;
    if (g >= groups.count || j >= box.y1) return;
    const Vec<T>* column = tile + (ty + R) * blockDim.x + tx;
    Vec<T> result;
#pragma unroll
    for (int q = 0; q < kLanes<T>; ++q) {
        T acc = c.y[0] * column[0].v[q];
#pragma unroll
        for (int r = 1; r <= R; ++r)
            acc = add_pair(acc, c.y[r], column[-r * int(blockDim.x)].v[q],
                           column[r * int(blockDim.x)].v[q]);
        result.v[q] = acc;
    }
    store_vec_masked(out.ptr(i, j, k), i, box.x0, box.x1, result);
}

template <int R, class T>
__global__ void __launch_bounds__(256)
    window_z_kernel(FieldView<const T> in, FieldView<T> out, Box box, Coefficients<R, T> c,
                    XGroups groups, int window) {
    const int g = int(threadIdx.x + blockIdx.x * blockDim.x);
    const int j = box.y0 + int(threadIdx.y + blockIdx.y * blockDim.y);
    const int k_first = box.z0 + int(blockIdx.z) * window;
    const int k_last = min(k_first + window, box.z1);
    if (g >= groups.count || j >= box.y1) return;
    const int i = groups.first + kLanes<T> * g;
    const long long slice = (long long)in.layout.slice;
    const T* p = in.ptr(i, j, k_first);

    Vec<T> w[2 * R + 1]; // planes k-R .. k+R of this thread's column
#pragma unroll
    for (int s = 0; s < 2 * R; ++s)
        w[s] = load_vec(p + (s - R) * slice);
        // Not unrolled: at R = 1 in double, nvcc 13 unrolled this loop into 32
        // registers and spilled (4 bytes); the register shift is only moves.
#pragma unroll 1
    for (int k = k_first; k < k_last; ++k, p += slice) {
        w[2 * R] = load_vec(p + R * slice);
        Vec<T> result;
#pragma unroll
        for (int q = 0; q < kLanes<T>; ++q) {
            T acc = c.z[0] * w[R].v[q];
#pragma unroll
            for (int r = 1; r <= R; ++r)
                acc = add_pair(acc, c.z[r], w[R - r].v[q], w[R + r].v[q]);
            result.v[q] = acc;
        }
        store_vec_masked(out.ptr(i, j, k), i, box.x0, box.x1, result);
#pragma unroll
        for (int s = 0; s < 2 * R; ++s)
            w[s] = w[s + 1];
    }
}

} // namespace

template <int R, class T>
void launch_baseline(Axis axis, FieldView<const T> in, FieldView<T> out, const Box& box,
                     const Coefficients<R, T>& c, Stream& stream) {
    if (box.empty()) return;
    const dim3 block(kBaselineX, kBaselineY);
    const dim3 grid(blocks_for(box.nx(), kBaselineX), blocks_for(box.ny(), kBaselineY), box.nz());
    if (axis == Axis::X)
        baseline_kernel<R, Axis::X, T><<<grid, block, 0, stream.handle()>>>(in, out, box, c);
    else if (axis == Axis::Y)
        baseline_kernel<R, Axis::Y, T><<<grid, block, 0, stream.handle()>>>(in, out, box, c);
    else
        baseline_kernel<R, Axis::Z, T><<<grid, block, 0, stream.handle()>>>(in, out, box, c);
    GPU_CHECK_LAUNCH();
}

template <int R, class T>
void launch_vector_x(FieldView<const T> in, FieldView<T> out, const Box& box,
                     const Coefficients<R, T>& c, Stream& stream, const LaunchShape& requested) {
    if (box.empty()) return;
    const auto g = GroupLaunch::of<T>(in.layout, box, checked_shape<T>(requested, R), 1);
    vector_x_kernel<R, T><<<g.grid, g.block, 0, stream.handle()>>>(in, out, box, c, g.groups);
    GPU_CHECK_LAUNCH();
}

template <int R, class T>
void launch_lds_y(FieldView<const T> in, FieldView<T> out, const Box& box,
                  const Coefficients<R, T>& c, Stream& stream, const LaunchShape& requested) {
    if (box.empty()) return;
    const LaunchShape t = checked_shape<T>(requested, R);
    const auto g = GroupLaunch::of<T>(in.layout, box, t, 1);
    const std::size_t lds = std::size_t(t.block_y + 2 * R) * t.block_x * sizeof(Vec<T>);
    lds_y_kernel<R, T><<<g.grid, g.block, lds, stream.handle()>>>(in, out, box, c, g.groups);
    GPU_CHECK_LAUNCH();
}

template <int R, class T>
void launch_window_z(FieldView<const T> in, FieldView<T> out, const Box& box,
                     const Coefficients<R, T>& c, Stream& stream, const LaunchShape& requested) {
    if (box.empty()) return;
    const LaunchShape t = checked_shape<T>(requested, R);
    const auto g = GroupLaunch::of<T>(in.layout, box, t, t.window);
    window_z_kernel<R, T>
        <<<g.grid, g.block, 0, stream.handle()>>>(in, out, box, c, g.groups, t.window);
    GPU_CHECK_LAUNCH();
}

#define STENCIL_INSTANTIATE_DIRECTIONAL(R, T)                                                      \
    template void launch_baseline<R, T>(Axis, FieldView<const T>, FieldView<T>, const Box&,        \
                                        const Coefficients<R, T>&, Stream&);                       \
    template void launch_vector_x<R, T>(FieldView<const T>, FieldView<T>, const Box&,              \
                                        const Coefficients<R, T>&, Stream&, const LaunchShape&);   \
    template void launch_lds_y<R, T>(FieldView<const T>, FieldView<T>, const Box&,                 \
                                     const Coefficients<R, T>&, Stream&, const LaunchShape&);      \
    template void launch_window_z<R, T>(FieldView<const T>, FieldView<T>, const Box&,              \
                                        const Coefficients<R, T>&, Stream&, const LaunchShape&);
STENCIL_FOR_EACH_RADIUS_AND_TYPE(STENCIL_INSTANTIATE_DIRECTIONAL)

} // namespace stencil::detail
