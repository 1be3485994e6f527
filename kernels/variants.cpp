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

Tuning fit_block_to_box(const Tuning& defaults, int groups) {
    if (groups >= defaults.block_x || defaults.block_x <= 8) return defaults;
    return {8, 16, defaults.window};
}

int auto_wave_window(long long blocks_per_layer, int nz, long long resident_blocks, int radius) {
    auto blocks = [&](int window) { return blocks_per_layer * ((nz + window - 1) / window); };
    for (const int window : {64, 32}) {
        const bool needed = window / 2 < 16 * radius; // half of it would reload more than 1/8
        if (needed && blocks(window) >= resident_blocks) return window;
    }
    // A box too small to fill the device at 16 planes: a block's time goes
    // with the planes it walks (window + 2R), so walk fewer, in more blocks.
    // Three quarters of the slots count as full here: on an H100, 128^3 at
    // R = 4 ran 8 planes (256 blocks for 264 slots) in 15.2 us, 4 in 18.2.
    for (const int window : {16, 8, 4, 2})
        if (4 * blocks(window) >= 3 * resident_blocks) return window;
    return 1;
}

std::size_t fused_tile_bytes(const Tuning& t, int radius, int rows) {
    const std::size_t halo_groups = std::size_t(radius + 3) / 4;
    return std::size_t(rows * t.block_y + 2 * radius) * (std::size_t(t.block_x) + 2 * halo_groups) *
           16;
}

std::string validate(const Tuning& requested) {
    if (requested.block_x < 0 || requested.block_y < 0 || requested.window < 0)
        return "block sizes and the z window must be positive";
    // Unset fields take each radius's default, so check every radius.
    for (int radius = kMinRadius; radius <= kMaxRadius; ++radius) {
        const Tuning t = resolve_tuning(requested, radius);
        if (t.block_x * t.block_y > 256)
            return "block_x*block_y is " + std::to_string(t.block_x * t.block_y) +
                   ", above the kernels' launch bound of 256 threads";
        // The fused kernels' two tiles must fit the 48 KiB that every
        // back-end grants without opting in.
        const std::size_t lds = 2 * fused_tile_bytes(t, radius, fused_rows_per_thread(radius));
        if (lds > 48 * 1024)
            return "the LDS tiles need " + std::to_string(lds) +
                   " bytes at R=" + std::to_string(radius) + ", above 48 KiB";
    }
    return {};
}

} // namespace stencil
