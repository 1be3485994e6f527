// The test aids that strike inside a step, as phases of its schedule: one
// function puts them into a schedule that step_phases() made, as Hook
// phases of the test aids' step hook (step_aids.hpp), so the step itself
// carries no test aid. The halo faults' work at each site is
// halo/halo_faults.hpp's.
#pragma once

#include "schedule/step_phases.hpp"
#include "testing/test_aids.hpp"

#include <vector>

namespace stencil {

// Where a planted fault strikes: the Phase::hook_point of the Hook phases
// planted below (halo/halo_faults.hpp and step_aids.cpp say what each does).
enum class FaultSite {
    None,
    BeforePack,      // the received halos filled with NaN (--poison-halo)
    AfterUnpack,     // the first face zeroed where the exchange filled it (drop-face)
    BeforeUpdate,    // the update storing faces: NaN over the halos it fills, the
                     // first face zeroed where the last update stored it
    StallStores,     // linked route: the update held back (ranks but 0), so a race is lost
    SaveSlabCell,    // skip-slab-cell: one slab cell's old value kept before the slabs
    RestoreSlabCell, // and put back after them, as if the slab kernel had skipped it
};

// Into the exchange step's `phases`, what `aids` plants: early-boundary
// moves the slabs right after the fork, before any halo arrives;
// --poison-halo and drop-face add Hook phases (before the pack and after
// the unpack on the halo stream; with `fused`, where the update stores
// faces, before the step's first update on compute too); peer-skip-wait
// and peer-early-signal drop the Await or move the Signal before the
// update, which a StallStores fault then holds back; skip-slab-cell puts a
// slab cell's old value back after the slabs. Unchanged without aids, or
// where the list exchanges nothing (a ring step).
void plant_in_schedule(std::vector<Phase>& phases, const TestAids& aids, bool fused);

} // namespace stencil
