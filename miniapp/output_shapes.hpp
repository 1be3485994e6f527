// Shapes two parts of the outputs agree on: what is written (outputs.cpp)
// and how much room it needs (output_setup.cpp).
#pragma once

#include <algorithm>

namespace stencil {

// Image axes of a slice normal to `axis`: z slices show x across and y
// down; x and y slices show the other horizontal axis across and depth down.
inline void slice_axes(int axis, int& across, int& down) {
    across = axis == 0 ? 1 : 0, down = axis == 2 ? 1 : 2;
}

// The shot gather keeps every stride-th step, so that a long record stays
// at most twice as tall as it is wide.
inline int gather_stride(int steps, int receivers) {
    return std::max(1, steps / std::max(1, 2 * receivers));
}

} // namespace stencil
