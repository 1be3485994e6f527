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

// The shot gather draws every column_stride-th receiver, so that it is at
// most kMaxGatherWidth pixels wide: a million receivers still make an image
// the encoder can hold and a viewer can open (traces.bin keeps them all).
constexpr int kMaxGatherWidth = 4096;
inline int gather_column_stride(int receivers) {
    return std::max(1, (receivers + kMaxGatherWidth - 1) / kMaxGatherWidth);
}
inline int gather_width(int receivers) {
    const int stride = gather_column_stride(receivers);
    return (receivers + stride - 1) / stride;
}

// It keeps every stride-th step, so that a long record stays at most twice
// as tall as the gather is wide.
inline int gather_stride(int steps, int receivers) {
    return std::max(1, steps / std::max(1, 2 * gather_width(receivers)));
}

} // namespace stencil
