// The fused one-pass Laplacian kernels: d2/dx2 + d2/dy2 in one pass over
// one plane per block, and the full Laplacian, whose z-walking body it
// shares with the wave update (fused_walk.hpp). One source, compiled as HIP
// or CUDA.
#include "fused_launch.hpp"

namespace stencil::detail {
using device::kLanes;
using device::laplacian_of;
using device::load_vec;
using device::stage_apron;
using device::store_vec_masked;
using device::TilePlace;
using device::Vec;

namespace {

template <int R, class T>
__global__ void __launch_bounds__(256)
    fused_xy_kernel(FieldView<const T> in, FieldView<T> out, Box box, Coefficients<R, T> c,
                    XGroups groups) {
    constexpr int G = device::kHaloGroups<R, T>, L = kLanes<T>;
    Vec<T>* tile = device::dynamic_lds<T>();
    const TilePlace t{groups.first + L * int(blockIdx.x * blockDim.x),
                      box.y0 + int(blockIdx.y * blockDim.y), int(blockDim.x) + 2 * G};
    const int i = t.i_block + L * int(threadIdx.x), j = t.j_first + int(threadIdx.y);
    const int k = box.z0 + int(blockIdx.z);

    stage_apron<R>(tile, t, in, k, box);
    Vec<T> w[2 * R + 1]; // unused without z; kept so both variants share the arithmetic
    Vec<T> y[2 * R + 1];
    if (i < box.x1 + R && j < box.y1 + R) {
        y[R] = load_vec(in.ptr(i, j, k));
        tile[(threadIdx.y + R) * t.width + threadIdx.x + G] = y[R];
    }
    __syncthreads();
    if (i >= box.x1 || j >= box.y1) return;
    const Vec<T>* row = tile + (threadIdx.y + R) * t.width + threadIdx.x;
#pragma unroll
    for (int m = 0; m < 2 * R + 1; ++m)
        if (m != R) y[m] = row[(m - R) * t.width + G];
    store_vec_masked(out.ptr(i, j, k), i, box.x0, box.x1, laplacian_of<R, false>(row, y, w, c));
}

} // namespace

template <int R, class T>
void launch_fused_xy(FieldView<const T> in, FieldView<T> out, const Box& box,
                     const Coefficients<R, T>& c, Stream& stream, const LaunchShape& requested) {
    if (box.empty()) return;
    const LaunchShape t = checked_shape<T>(requested, R);
    Coefficients<R, T> xy = c;
    xy.centre = c.x[0] + c.y[0];
    const auto g = GroupLaunch::of<T>(in.layout, box, t, 1);
    fused_xy_kernel<R, T>
        <<<g.grid, g.block, fused_tile_bytes(t, R, 1, precision_of<T>()), stream.handle()>>>(
            in, out, box, xy, g.groups);
    GPU_CHECK_LAUNCH();
}

template <int R, class T>
void launch_fused_laplacian(FieldView<const T> in, FieldView<T> out, const Box& box,
                            const Coefficients<R, T>& c, Stream& stream, const LaunchShape& t) {
    launch_fused<R, T, false>(in, out, in, box, c, Sponge{}, stream, t);
}

} // namespace stencil::detail

namespace stencil {

#define STENCIL_INSTANTIATE_FUSED(R, T)                                                            \
    template void detail::launch_fused_xy<R, T>(FieldView<const T>, FieldView<T>, const Box&,      \
                                                const Coefficients<R, T>&, Stream&,                \
                                                const LaunchShape&);                               \
    template void detail::launch_fused_laplacian<R, T>(FieldView<const T>, FieldView<T>,           \
                                                       const Box&, const Coefficients<R, T>&,      \
                                                       Stream&, const LaunchShape&);
STENCIL_FOR_EACH_RADIUS_AND_TYPE(STENCIL_INSTANTIATE_FUSED)

} // namespace stencil
