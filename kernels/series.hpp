// The Laplacian series' workload as a benchmark family: the 7-point (R = 1)
// Laplacian, one step per technique the series applies to it, written from
// its description so that users can put our numbers beside its tables.
//
//   Baseline      one thread per cell, blocks of 256 x 1, no launch bounds
//   Tiled         m cells per thread along y; each cell's loads in the
//                 formula's order (centre, x, y, z neighbours)
//   Reordered     the same m cells, loaded in increasing address order: the
//                 plane below, the row before, the m rows, the row after,
//                 the plane above, so that a row is fetched once per thread
//   Bounded       Reordered with the 256-thread launch bound, which lets the
//                 compiler use more registers for larger m
//   Nontemporal   Bounded with nontemporal stores, which keep the output out
//                 of the cache that the input's reuse needs
//
// GPU back-ends only: the HOST back-end has one technique per operator.
#pragma once

#include "box.hpp"
#include "coefficients.hpp"
#include "field.hpp"
#include "stream.hpp"

#include <vector>

namespace stencil {

enum class SeriesStep { Baseline, Tiled, Reordered, Bounded, Nontemporal };

const char* series_step_name(SeriesStep step);
const std::vector<SeriesStep>& series_steps();
// The cells per thread along y a step is built for: 1 for the baseline,
// 1, 2, 4, 8 and 16 for the others.
const std::vector<int>& series_cells_per_thread(SeriesStep step);

// out = L(in) over `box` with the 7-point Laplacian, by `step` with `m`
// cells per thread (one of series_cells_per_thread(step)).
template <class T>
void launch_series_laplacian(SeriesStep step, int m, FieldView<const T> in, FieldView<T> out,
                             const Box& box, const Coefficients<1, T>& c, Stream& stream);

} // namespace stencil
