// The self-tuner on this process's GPU: times launch shapes of the fused
// Laplacian or the wave kernel over one box, each checked bit for bit
// against the built-in default's result, and searches them with
// coordinate_descent (tuner.hpp).
#pragma once

#include "tuner.hpp"
#include "tuning_cache.hpp"

#include <string>

namespace stencil {

// Tunes `kernel` (the fused Laplacian or the wave update) at radius R in
// precision T over `box` of `layout`, on scratch fields of random data (the
// caller's fields are not touched). Each shape is launched once from the
// same inputs and its whole output compared with the default shape's: a
// shape that differs in any bit is refused. Then it is timed with device
// events over a few launches after one warm-up. `budget_ms` bounds the
// wall time of the measurements. On the HOST back-end, which has no launch
// shape, returns the default untimed.
template <int R, class T>
TuneResult tune_on_device(FusedKernel kernel, const Layout& layout, const Box& box,
                          double budget_ms, double noise = 0.02);

// Where a launch shape came from.
enum class ShapeSource { BuiltIn, Cache, TunedNow };
const char* shape_source_name(ShapeSource source); // "built-in default", "cache", "tuned now"

struct TunedShape {
    LaunchShape shape;
    ShapeSource source = ShapeSource::BuiltIn;
    std::string summary; // the search's line, when tuned now
};

// The tuned shape of `kernel` over
// `box` of `layout`: from `cache` when it holds one for these extents, else
// tuned now (tune_on_device) and put into `cache`, which the caller saves.
// On the HOST back-end, which has no launch shape, the built-in one.
template <int R, class T>
TunedShape cached_or_tuned(TuningCache& cache, FusedKernel kernel, const Layout& layout,
                           const Box& box, double budget_ms);

} // namespace stencil
