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

// The undamped leapfrog, p_next = 2 p - p_prev + vel_term * lap, where
// vel_term = dt^2 c^2. In the sponge, Sponge::damp (sponge.hpp) takes it
// and p_prev to the damped one, with products and no division.
template <class T>
STENCIL_HD inline T leapfrog(T p, T p_prev, T vel_term, T lap) {
    return (T(2) * p - p_prev) + vel_term * lap;
}

} // namespace stencil
