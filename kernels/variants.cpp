#include "gpu_runtime.hpp"
#include "stencil.hpp"

namespace stencil {

const char* variant_name(Variant v) {
    switch (v) {
    case Variant::BaselineX:
        return "baseline_x";
    case Variant::BaselineY:
        return "baseline_y";
    case Variant::BaselineZ:
        return "baseline_z";
    case Variant::VectorX:
        return "vector_x";
    case Variant::LdsY:
        return "lds_y";
    case Variant::WindowZ:
        return "window_z";
    case Variant::FusedXY:
        return "fused_xy";
    case Variant::FusedXYZ:
        return "fused_xyz";
    }
    return "?";
}

const char* variant_axes(Variant v) {
    switch (v) {
    case Variant::BaselineX:
    case Variant::VectorX:
        return "x";
    case Variant::BaselineY:
    case Variant::LdsY:
        return "y";
    case Variant::BaselineZ:
    case Variant::WindowZ:
        return "z";
    case Variant::FusedXY:
        return "xy";
    case Variant::FusedXYZ:
        return "xyz";
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

Tuning default_tuning(int radius) {
    return radius <= 5 ? Tuning{16, 8, 16} : Tuning{8, 16, 16};
}

Tuning resolve_tuning(const Tuning& requested, int radius) {
    const Tuning d = default_tuning(radius);
    return {requested.block_x ? requested.block_x : d.block_x,
            requested.block_y ? requested.block_y : d.block_y,
            requested.window ? requested.window : d.window};
}

std::string validate(const Tuning& requested) {
    if (requested.block_x < 0 || requested.block_y < 0 || requested.window < 0)
        return "block sizes and the z window must be positive";
    // The worst case over the radii whose defaults fill the unset fields.
    for (int radius : {kMinRadius, kMaxRadius}) {
        const std::string why = [&]() -> std::string {
            const Tuning t = resolve_tuning(requested, radius);
            if (t.block_x * t.block_y > 256)
                return "block_x*block_y is " + std::to_string(t.block_x * t.block_y) +
                       ", above the kernels' launch bound of 256 threads";
            // The largest LDS use: the fused kernels' two tiles at R = 8, each
            // (block_y + 16) rows of (block_x + 4) 16-byte groups.
            const long long lds = 2 * (t.block_y + 2LL * kMaxRadius) * (t.block_x + 4LL) * 16;
            if (lds > 48 * 1024)
                return "the LDS tile needs " + std::to_string(lds) + " bytes at R=8, above 48 KiB";
            return {};
        }();
        if (!why.empty()) return why;
    }
    return {};
}

} // namespace stencil
