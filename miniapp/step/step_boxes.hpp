// The boxes a rank's step updates and where the source's images fall, as
// pure functions of the layout, the halo depth and the sides with a
// neighbour: SimulationOf<T> (simulation_setup.cpp) takes them at setup,
// and the host tests check them without a run.
#pragma once

#include "box.hpp"
#include "launch_table.hpp"
#include "layout.hpp"

#include <array>
#include <functional>
#include <vector>

namespace stencil {

struct StepBoxes {
    Box whole;              // the exchange step's update: the interior grown by (k-1)*R
    Box inner;              // what it can update before the halos arrive
    std::vector<Box> slabs; // the shell between the two (non-empty boxes)
    std::vector<Box> rings; // the k-1 steps after the exchange, each R smaller
};

// `sides`: whether each face (x low, x high, y low, ...) has a neighbour;
// only those exchange, shrink and grow. `x_depth`: cells of the x slabs,
// at least depth * radius (slab_x_depth). `reshape_grown`, where given,
// may change each box grown beyond the interior before the exchange
// step's box is split (a step hook's box_grown, step_hooks.hpp).
StepBoxes step_boxes(const Layout& layout, int radius, int depth, const std::array<bool, 6>& sides,
                     int x_depth = 0, const std::function<void(Box&)>& reshape_grown = {});

// The source cell and its images one period away along each periodic
// axis, in this rank's padded index space, that lie inside `box`: a rank
// alone along a periodic axis holds images of the source in its ring.
// `offset`: the global index of the rank's first owned cell.
std::vector<std::array<int, 3>> source_images(const std::array<int, 3>& source,
                                              const std::array<int, 3>& offset,
                                              const std::array<int, 3>& global,
                                              const std::array<bool, 3>& periodic, int halo,
                                              const Box& box);

} // namespace stencil
