// Per-cell arithmetic shared by every implementation of an operator.
//
// The distributed run is bitwise equal to a one-domain run only if a cell is
// computed by the same operations in the same order wherever it falls: in
// the interior kernel or a boundary slab, on an aligned or unaligned vector,
// in a full or a partial tile. So every GPU path and every host loop builds
// its results from these functions, and sums the stencil in the same order:
// centre first, then for r = 1..R the x, y and z pairs.
#pragma once

#include "box.hpp"

namespace stencil {

// One symmetric pair of a second-derivative stencil: acc + w * (left + right).
template <class T>
STENCIL_HD inline T add_pair(T acc, T weight, T left, T right) {
    return acc + weight * (left + right);
}

// Leapfrog with damping eta (0 outside the sponge):
//   p_next = (2 p - (1 - eta) p_prev + vel_term * lap) / (1 + eta)
// where vel_term = dt^2 c^2. Outside the sponge the division is skipped, not
// merely made trivial: IEEE division takes a slow path on subnormal inputs,
// which the tails of a wavefield are full of (docs/performance-history.md,
// "The leapfrog's division outside the sponge").
template <class T>
STENCIL_HD inline T leapfrog(T p, T p_prev, T vel_term, T lap, T eta) {
    const T undamped = (T(2) * p - p_prev) + vel_term * lap;
    if (eta == T(0)) return undamped;
    return (undamped + eta * p_prev) / (T(1) + eta);
}

} // namespace stencil
