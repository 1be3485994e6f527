// The self-tuner on this process's GPU: times launch shapes of the fused
// Laplacian or the wave kernel over one box, each checked bit for bit
// against the built-in default's result, and searches them with
// coordinate_descent (tuner.hpp).
#pragma once

#include "tuner.hpp"

namespace stencil {

// Tunes the wave kernel (wave) or the fused Laplacian at radius R in
// precision T over `box` of `layout`, on scratch fields of random data (the
// caller's fields are not touched). Each shape is launched once from the
// same inputs and its whole output compared with the default shape's: a
// shape that differs in any bit is refused. Then it is timed with device
// events over a few launches after one warm-up. `budget_ms` bounds the
// wall time of the measurements. On the HOST back-end, which has no launch
// shape, returns the default untimed.
template <int R, class T>
TuneResult tune_on_device(bool wave, const Layout& layout, const Box& box, double budget_ms,
                          double noise = 0.02);

} // namespace stencil
