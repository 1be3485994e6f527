#include "gpu_runtime.hpp"
#include "stencil.hpp"

namespace stencil {

namespace {

struct VariantInfo {
    Variant variant;
    const char* name;
    const char* axes; // the directions it differentiates
};

constexpr VariantInfo kVariants[] = {
    {Variant::BaselineX, "baseline_x", "x"}, {Variant::BaselineY, "baseline_y", "y"},
    {Variant::BaselineZ, "baseline_z", "z"}, {Variant::VectorX, "vector_x", "x"},
    {Variant::LdsY, "lds_y", "y"},           {Variant::WindowZ, "window_z", "z"},
    {Variant::FusedXY, "fused_xy", "xy"},    {Variant::FusedXYZ, "fused_xyz", "xyz"},
};

const VariantInfo& info(Variant v) {
    for (const VariantInfo& i : kVariants)
        if (i.variant == v) return i;
    fatal("unknown kernel variant");
}

} // namespace

const char* variant_name(Variant v) {
    return info(v).name;
}
const char* variant_axes(Variant v) {
    return info(v).axes;
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
            return {};
        }();
        if (!why.empty()) return why;
    }
    // The fused kernels' two LDS tiles, each (rows*block_y + 2R) rows of
    // (block_x + 2G) 16-byte groups, G = ceil(R/4), must fit the 48 KiB
    // that every back-end grants without opting in.
    for (int radius = kMinRadius; radius <= kMaxRadius; ++radius) {
        const Tuning t = resolve_tuning(requested, radius);
        const long long rows = fused_rows_per_thread(radius) * t.block_y + 2LL * radius;
        const long long lds = 2 * rows * (t.block_x + 2LL * ((radius + 3) / 4)) * 16;
        if (lds > 48 * 1024)
            return "the LDS tiles need " + std::to_string(lds) +
                   " bytes at R=" + std::to_string(radius) + ", above 48 KiB";
    }
    return {};
}

} // namespace stencil
