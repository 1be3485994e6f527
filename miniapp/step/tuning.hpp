// The mini-app's self-tuning step (--tuning off|auto|FILE): the launch
// shape of every box the wave update runs over, agreed by all ranks.
#pragma once

#include "step/simulation.hpp"
#include "tune_on_device.hpp"

#include <string>
#include <vector>

namespace stencil {

// One distinct box shape of the run, as the report lists it.
struct ShapeChoice {
    std::array<int, 3> extents{0, 0, 0};
    LaunchShape shape;
    ShapeSource source = ShapeSource::BuiltIn;
};

// Collective over d.cart. With --tuning off, every box keeps its built-in shape. Else
// rank 0 gathers the distinct box extents of every rank, takes each one's
// shape from the cache (auto: default_tuning_cache_path(); or the FILE) or
// tunes it now on its GPU within the run's budget, saves the cache (rank 0
// is the one writer, atomically), and broadcasts the choices; every rank
// then uses the same shape for boxes of the same extents, so results stay
// bitwise decomposition-invariant. Returns this rank's distinct boxes with
// the shape each now runs and where it came from; rank 0 prints the
// cache's one-line note, if any, on stderr.
std::vector<ShapeChoice> apply_tuning(LaunchShapes& run, const Decomposition& d,
                                      const Options& options);

} // namespace stencil
