#include "gpu_runtime.hpp"
#include "stencil.hpp"

namespace stencil {

const char* variant_name(Variant v) {
    switch (v) {
    case Variant::BaselineX: return "baseline_x";
    case Variant::BaselineY: return "baseline_y";
    case Variant::BaselineZ: return "baseline_z";
    case Variant::VectorX: return "vector_x";
    case Variant::LdsY: return "lds_y";
    case Variant::WindowZ: return "window_z";
    case Variant::FusedXY: return "fused_xy";
    case Variant::FusedXYZ: return "fused_xyz";
    }
    return "?";
}

const char* variant_axes(Variant v) {
    switch (v) {
    case Variant::BaselineX:
    case Variant::VectorX: return "x";
    case Variant::BaselineY:
    case Variant::LdsY: return "y";
    case Variant::BaselineZ:
    case Variant::WindowZ: return "z";
    case Variant::FusedXY: return "xy";
    case Variant::FusedXYZ: return "xyz";
    }
    return "?";
}

const std::vector<Variant>& available_variants() {
#if STENCIL_HAS_GPU
    static const std::vector<Variant> all = {
        Variant::BaselineX, Variant::BaselineY, Variant::BaselineZ, Variant::VectorX,
        Variant::LdsY,      Variant::WindowZ,   Variant::FusedXY,   Variant::FusedXYZ};
#else
    static const std::vector<Variant> all = {Variant::BaselineX, Variant::BaselineY,
                                             Variant::BaselineZ, Variant::FusedXYZ};
#endif
    return all;
}

std::string validate(const Tuning& t) {
    if (t.block_x < 1 || t.block_y < 1 || t.window < 1)
        return "block sizes and the z window must be positive";
    if (t.block_x * t.block_y > 256)
        return "block_x*block_y is " + std::to_string(t.block_x * t.block_y) +
               ", above the kernels' launch bound of 256 threads";
    // The largest LDS use: the fused kernels' two tiles at R = 8, each
    // (block_y + 16) rows of (block_x + 4) 16-byte groups.
    const long long lds = 2 * (t.block_y + 2LL * kMaxRadius) * (t.block_x + 4LL) * 16;
    if (lds > 48 * 1024)
        return "the LDS tile needs " + std::to_string(lds) + " bytes at R=8, above 48 KiB";
    return {};
}

} // namespace stencil
