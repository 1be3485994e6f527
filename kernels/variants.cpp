#include "gpu_runtime.hpp"
#include "series.hpp"
#include "stencil.hpp"

#include <algorithm>

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

const char* series_step_name(SeriesStep step) {
    switch (step) {
    case SeriesStep::Baseline:
        return "baseline";
    case SeriesStep::Tiled:
        return "tiled";
    case SeriesStep::Reordered:
        return "reordered";
    case SeriesStep::Bounded:
        return "bounds";
    case SeriesStep::Nontemporal:
        return "nontemporal";
    }
    return "?";
}

const std::vector<SeriesStep>& series_steps() {
    static const std::vector<SeriesStep> all = {SeriesStep::Baseline, SeriesStep::Tiled,
                                                SeriesStep::Reordered, SeriesStep::Bounded,
                                                SeriesStep::Nontemporal};
    return all;
}

const std::vector<int>& series_cells_per_thread(SeriesStep step) {
    static const std::vector<int> one = {1}, tiled = {1, 2, 4, 8, 16};
    return step == SeriesStep::Baseline ? one : tiled;
}

} // namespace stencil
