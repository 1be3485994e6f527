// The test aids that strike inside a step, as phases of its schedule: one
// function puts them into a schedule that step_phases() made, so the step
// itself carries no test aid. The halo faults' work at each Fault phase is
// halo/halo_faults.hpp's.
#pragma once

#include "schedule/step_phases.hpp"
#include "testing/test_aids.hpp"

#include <vector>

namespace stencil {

// Into the exchange step's `phases`, what `aids` plants: early-boundary
// moves the slabs right after the fork, before any halo arrives;
// --poison-halo and drop-face add Fault phases (before the pack and after
// the unpack on the halo stream; with `fused`, where the update stores
// faces, before the step's first update on compute too); peer-skip-wait
// and peer-early-signal drop the Await or move the Signal before the
// update, which a StallStores fault then holds back; skip-slab-cell puts a
// slab cell's old value back after the slabs. Unchanged without aids, or
// where the list exchanges nothing (a ring step).
void plant_in_schedule(std::vector<Phase>& phases, const TestAids& aids, bool fused);

} // namespace stencil
