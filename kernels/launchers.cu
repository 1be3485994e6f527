// The public launchers of stencil.hpp for the GPU back-ends, and the copy
// kernel that serves as the bandwidth yardstick.
#include "device_vec.hpp"
#include "gpu_launch.hpp"

#include <map>
#include <mutex>
#include <tuple>

namespace stencil {
namespace {

template <class T>
__global__ void __launch_bounds__(256)
    copy_kernel(const T* __restrict__ src, T* __restrict__ dst, std::size_t groups) {
    // Grid-stride over 16-byte groups: the widest access either vendor issues per lane.
    constexpr int L = device::kLanes<T>;
    for (std::size_t g = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; g < groups;
         g += std::size_t(gridDim.x) * blockDim.x)
        device::store_vec(dst + L * g, device::load_vec(src + L * g));
}

template <class T>
__global__ void copy_tail_kernel(const T* src, T* dst, std::size_t count) {
    const std::size_t i = threadIdx.x;
    if (i < count) dst[i] = src[i];
}

} // namespace

namespace detail {

long long resident_blocks(const void* kernel, int threads, std::size_t lds_bytes) {
    static std::mutex mutex;
    static std::map<std::tuple<const void*, int, std::size_t>, long long> known;
    const std::lock_guard<std::mutex> lock(mutex);
    const auto key = std::make_tuple(kernel, threads, lds_bytes);
    if (const auto it = known.find(key); it != known.end()) return it->second;
    int per_unit = 0, device = 0, units = 0;
    GPU_CHECK(STENCIL_RT(OccupancyMaxActiveBlocksPerMultiprocessor)(&per_unit, kernel, threads,
                                                                    lds_bytes));
    GPU_CHECK(STENCIL_RT(GetDevice)(&device));
    GPU_CHECK(STENCIL_RT(DeviceGetAttribute)(&units, gpu::kMultiprocessorCount, device));
    return known[key] = (long long)per_unit * units;
}

} // namespace detail

template <int R, class T>
void launch_derivative(Variant variant, FieldView<const T> in, FieldView<T> out, const Box& box,
                       const Coefficients<R, T>& c, Stream& stream, const LaunchShape& shape) {
    switch (variant) {
    case Variant::BaselineX:
        return detail::launch_baseline<R, T>(Axis::X, in, out, box, c, stream);
    case Variant::BaselineY:
        return detail::launch_baseline<R, T>(Axis::Y, in, out, box, c, stream);
    case Variant::BaselineZ:
        return detail::launch_baseline<R, T>(Axis::Z, in, out, box, c, stream);
    case Variant::VectorX:
        return detail::launch_vector_x<R, T>(in, out, box, c, stream, shape);
    case Variant::LdsY:
        return detail::launch_lds_y<R, T>(in, out, box, c, stream, shape);
    case Variant::WindowZ:
        return detail::launch_window_z<R, T>(in, out, box, c, stream, shape);
    case Variant::FusedXY:
        return detail::launch_fused_xy<R, T>(in, out, box, c, stream, shape);
    case Variant::FusedXYZ:
        return detail::launch_fused_laplacian<R, T>(in, out, box, c, stream, shape);
    }
}

template <class T>
void launch_copy(const T* src, T* dst, std::size_t count, Stream& stream) {
    // Callers pass 16-byte-aligned arrays (every allocation here is 256-byte aligned).
    constexpr int L = device::kLanes<T>;
    const std::size_t groups = count / L, tail = count - L * groups;
    if (groups) {
        const unsigned blocks = unsigned(std::min<std::size_t>((groups + 255) / 256, 1u << 20));
        copy_kernel<T><<<blocks, 256, 0, stream.handle()>>>(src, dst, groups);
        GPU_CHECK_LAUNCH();
    }
    if (tail) {
        copy_tail_kernel<T><<<1, L, 0, stream.handle()>>>(src + L * groups, dst + L * groups, tail);
        GPU_CHECK_LAUNCH();
    }
}

STENCIL_FOR_EACH_RADIUS_AND_TYPE(STENCIL_INSTANTIATE_DERIVATIVE)
template void launch_copy<float>(const float*, float*, std::size_t, Stream&);
template void launch_copy<double>(const double*, double*, std::size_t, Stream&);

} // namespace stencil
