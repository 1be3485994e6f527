// The public launchers of stencil.hpp for the GPU back-ends, and the copy
// kernel that serves as the bandwidth yardstick.
#include "device_vec.hpp"
#include "gpu_launch.hpp"

#include <map>
#include <mutex>
#include <tuple>

namespace stencil {
namespace {

__global__ void __launch_bounds__(256)
    copy_kernel(const float* __restrict__ src, float* __restrict__ dst, std::size_t groups) {
    // Grid-stride over 16-byte groups: the widest access either vendor issues per lane.
    for (std::size_t g = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; g < groups;
         g += std::size_t(gridDim.x) * blockDim.x)
        device::store4(dst + 4 * g, device::load4(src + 4 * g));
}

__global__ void copy_tail_kernel(const float* src, float* dst, std::size_t count) {
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

template <int R>
void launch_derivative(Variant variant, FieldView<const float> in, FieldView<float> out,
                       const Box& box, const Coefficients<R, float>& c, Stream& stream,
                       const Tuning& tuning) {
    switch (variant) {
    case Variant::BaselineX:
        return detail::launch_baseline<R>(Axis::X, in, out, box, c, stream);
    case Variant::BaselineY:
        return detail::launch_baseline<R>(Axis::Y, in, out, box, c, stream);
    case Variant::BaselineZ:
        return detail::launch_baseline<R>(Axis::Z, in, out, box, c, stream);
    case Variant::VectorX:
        return detail::launch_vector_x<R>(in, out, box, c, stream, tuning);
    case Variant::LdsY:
        return detail::launch_lds_y<R>(in, out, box, c, stream, tuning);
    case Variant::WindowZ:
        return detail::launch_window_z<R>(in, out, box, c, stream, tuning);
    case Variant::FusedXY:
        return detail::launch_fused_xy<R>(in, out, box, c, stream, tuning);
    case Variant::FusedXYZ:
        return detail::launch_fused_laplacian<R>(in, out, box, c, stream, tuning);
    }
}

void launch_copy(const float* src, float* dst, std::size_t count, Stream& stream) {
    // Callers pass 16-byte-aligned arrays (every allocation here is 256-byte aligned).
    const std::size_t groups = count / 4, tail = count - 4 * groups;
    if (groups) {
        const unsigned blocks = unsigned(std::min<std::size_t>((groups + 255) / 256, 1u << 20));
        copy_kernel<<<blocks, 256, 0, stream.handle()>>>(src, dst, groups);
        GPU_CHECK_LAUNCH();
    }
    if (tail) {
        copy_tail_kernel<<<1, 4, 0, stream.handle()>>>(src + 4 * groups, dst + 4 * groups, tail);
        GPU_CHECK_LAUNCH();
    }
}

#define STENCIL_INSTANTIATE_DERIVATIVE(R)                                                          \
    template void launch_derivative<R>(Variant, FieldView<const float>, FieldView<float>,          \
                                       const Box&, const Coefficients<R, float>&, Stream&,         \
                                       const Tuning&);
STENCIL_INSTANTIATE_DERIVATIVE(1)
STENCIL_INSTANTIATE_DERIVATIVE(2)
STENCIL_INSTANTIATE_DERIVATIVE(3)
STENCIL_INSTANTIATE_DERIVATIVE(4)
STENCIL_INSTANTIATE_DERIVATIVE(5)
STENCIL_INSTANTIATE_DERIVATIVE(6)
STENCIL_INSTANTIATE_DERIVATIVE(7)
STENCIL_INSTANTIATE_DERIVATIVE(8)

} // namespace stencil
