// GPU kernels of the Laplacian series' steps (series.hpp). One source,
// compiled as HIP or CUDA.
#include "device_vec.hpp"
#include "gpu_launch.hpp"
#include "series.hpp"

namespace stencil {
namespace {

constexpr int kSeriesBlock = 256; // threads along x, as in the series

// The M cells (i, j0..j0+M-1, k) of one thread. Rows at or beyond y1 are
// neither stored nor, beyond y1 + 1, loaded: any box works.
template <class T, int M, bool Reordered, bool Nontemporal>
__device__ inline void series_cells(const T* __restrict__ in, T* __restrict__ out, Layout layout,
                                    Box box, Coefficients<1, T> c) {
    const int i = box.x0 + int(blockIdx.x * blockDim.x + threadIdx.x);
    const int j0 = box.y0 + M * int(blockIdx.y);
    const int k = box.z0 + int(blockIdx.z);
    if (i >= box.x1) return;
    const long long line = layout.line, slice = (long long)layout.slice;
    const T* u = in + layout.index(i, j0, k);
    T* f = out + layout.index(i, j0, k);
    auto store = [&](int n, T value) {
        if (j0 + n >= box.y1) return;
        if (Nontemporal)
            device::store_nontemporal(f + n * line, value);
        else
            f[n * line] = value;
    };
    if (!Reordered) {
#pragma unroll
        for (int n = 0; n < M; ++n) {
            if (j0 + n >= box.y1) continue;
            const T* p = u + n * line;
            T acc = c.centre * p[0];
            acc = add_pair(acc, c.x[1], p[-1], p[1]);
            acc = add_pair(acc, c.y[1], p[-line], p[line]);
            acc = add_pair(acc, c.z[1], p[-slice], p[slice]);
            store(n, acc);
        }
        return;
    }
    // Increasing addresses: plane k-1, then rows j0-1 .. j0+rows of plane k
    // (x neighbours with the centre rows), then plane k+1. Every loop is
    // unrolled with guards, never left early: hipcc keeps a loop that it
    // cannot unroll rolled, and these arrays then live in scratch.
    const int rows = box.y1 - j0 < M ? box.y1 - j0 : M; // rows stored
    // centre[n + 1] is row j0 + n; west and east have one slot never used.
    T below[M], above[M], west[M + 1], east[M + 1], centre[M + 2];
#pragma unroll
    for (int n = 0; n < M; ++n)
        if (n < rows) below[n] = u[n * line - slice];
    centre[0] = u[-line];
#pragma unroll
    for (int n = 0; n <= M; ++n) {
        if (n < rows) west[n] = u[n * line - 1];
        if (n <= rows) centre[n + 1] = u[n * line];
        if (n < rows) east[n] = u[n * line + 1];
    }
#pragma unroll
    for (int n = 0; n < M; ++n)
        if (n < rows) above[n] = u[n * line + slice];
#pragma unroll
    for (int n = 0; n < M; ++n) {
        if (n >= rows) continue;
        T acc = c.centre * centre[n + 1];
        acc = add_pair(acc, c.x[1], west[n], east[n]);
        acc = add_pair(acc, c.y[1], centre[n], centre[n + 2]);
        acc = add_pair(acc, c.z[1], below[n], above[n]);
        store(n, acc);
    }
}

// Steps 1-3: no launch bound, so the compiler assumes blocks of up to 1024
// threads and caps registers accordingly, as in the series.
template <class T, int M, bool Reordered>
__global__ void series_kernel(const T* in, T* out, Layout layout, Box box, Coefficients<1, T> c) {
    series_cells<T, M, Reordered, false>(in, out, layout, box, c);
}

// Steps 4-5: the 256-thread launch bound.
template <class T, int M, bool Nontemporal>
__global__ void __launch_bounds__(kSeriesBlock)
    series_bounded_kernel(const T* in, T* out, Layout layout, Box box, Coefficients<1, T> c) {
    series_cells<T, M, true, Nontemporal>(in, out, layout, box, c);
}

template <class T, int M>
void launch_with(SeriesStep step, FieldView<const T> in, FieldView<T> out, const Box& box,
                 const Coefficients<1, T>& c, Stream& stream) {
    const dim3 grid(detail::blocks_for(box.nx(), kSeriesBlock), detail::blocks_for(box.ny(), M),
                    box.nz());
    const dim3 block(kSeriesBlock);
    auto* h = stream.handle();
    switch (step) {
    case SeriesStep::Baseline:
    case SeriesStep::Tiled:
        series_kernel<T, M, false><<<grid, block, 0, h>>>(in.origin, out.origin, in.layout, box, c);
        break;
    case SeriesStep::Reordered:
        series_kernel<T, M, true><<<grid, block, 0, h>>>(in.origin, out.origin, in.layout, box, c);
        break;
    case SeriesStep::Bounded:
        series_bounded_kernel<T, M, false>
            <<<grid, block, 0, h>>>(in.origin, out.origin, in.layout, box, c);
        break;
    case SeriesStep::Nontemporal:
        series_bounded_kernel<T, M, true>
            <<<grid, block, 0, h>>>(in.origin, out.origin, in.layout, box, c);
        break;
    }
    GPU_CHECK_LAUNCH();
}

} // namespace

template <class T>
void launch_series_laplacian(SeriesStep step, int m, FieldView<const T> in, FieldView<T> out,
                             const Box& box, const Coefficients<1, T>& c, Stream& stream) {
    if (step == SeriesStep::Baseline && m != 1)
        fatal("the series' baseline computes one cell per thread, not " + std::to_string(m));
    if (box.empty()) return;
    switch (m) {
    case 1:
        return launch_with<T, 1>(step, in, out, box, c, stream);
    case 2:
        return launch_with<T, 2>(step, in, out, box, c, stream);
    case 4:
        return launch_with<T, 4>(step, in, out, box, c, stream);
    case 8:
        return launch_with<T, 8>(step, in, out, box, c, stream);
    case 16:
        return launch_with<T, 16>(step, in, out, box, c, stream);
    default:
        fatal("the series' steps take 1, 2, 4, 8 or 16 cells per thread, not " + std::to_string(m));
    }
}

template void launch_series_laplacian<float>(SeriesStep, int, FieldView<const float>,
                                             FieldView<float>, const Box&,
                                             const Coefficients<1, float>&, Stream&);
template void launch_series_laplacian<double>(SeriesStep, int, FieldView<const double>,
                                              FieldView<double>, const Box&,
                                              const Coefficients<1, double>&, Stream&);

} // namespace stencil
