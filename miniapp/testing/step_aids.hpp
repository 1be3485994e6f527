// The test aids that strike inside a rank's step, as its step hook
// (step/step_hooks.hpp): the main run installs it where an aid is asked
// for, so that the step itself carries none. It plants the Hook phases of
// planted_phases.hpp, does their work (the halo faults of
// halo/halo_faults.hpp, the held-back stores, the skipped slab cell), and
// shortens the deep-halo ring for short-ring.
#pragma once

#include "step/step_hooks.hpp"
#include "testing/test_aids.hpp"

#include <array>
#include <memory>
#include <string>
#include <vector>

namespace stencil {

// Where a rank's step plants the bugs --inject-fault and --poison-halo ask
// for (TestAidHooks::warn_where_nothing_planted, planted_report.cpp, says
// which plant nothing).
struct PlantedFaults {
    bool short_fused_pack = false;      // a stored face shortened (z faces of messages go in place)
    bool wrong_face = false;            // two stored faces of one shape swapped
    bool wrong_level = false;           // a linked face aimed at the level its neighbour reads
    bool slab_cell = false;             // a step updates boundary slabs
    bool short_ring = false;            // a deep halo's ring (depth 2 or more)
    bool races = false;                 // peer-skip-wait, peer-early-signal: a linked face
    bool races_beside_messages = false; // ... in a step that also waits for messages
    bool early_boundary = false;        // slabs after an exchange that moves data
    bool halos = false;                 // --poison-halo: a halo the exchange or the update fills
    bool drop_face = false;             // the first face's halo is filled, by a message or a store
};

// Makes the step hooks that plant `aids` in a simulation of either
// precision, and keeps what the last one made planted on this rank.
class TestAidHooks final : public StepHookMaker {
public:
    explicit TestAidHooks(const TestAids& aids)
        : aids_(aids), planted_(std::make_shared<PlantedFaults>()) {}
    std::unique_ptr<StepHooks<float>> make(float) const override;
    std::unique_ptr<StepHooks<double>> make(double) const override;
    // This maker where some aid is asked for, else null: what to pass to
    // make_simulation, so that a run without aids takes the step alone.
    const StepHookMaker* where_asked() const { return aids_.planted().empty() ? nullptr : this; }
    // Which of the planted bugs strike on this rank, as the run is
    // configured (a bug that strikes nowhere is said to plant nothing);
    // known once make_simulation has returned.
    const PlantedFaults& planted() const { return *planted_; }
    // Collective, once make_simulation has returned (planted_report.cpp):
    // one warning for each bug asked for that strikes on no rank, so that a
    // --check that passes is not read as the bug caught.
    void warn_where_nothing_planted() const;
    // Collective, likewise: the bugs asked for that change the field on
    // some rank, as the options name them (the field's provenance).
    std::vector<std::string> field_bugs() const;

private:
    TestAids aids_;
    // Shared with the hooks made, which fill it in at the step's setup.
    std::shared_ptr<PlantedFaults> planted_;
};

// short-ring: `box`, grown on the `sides` with a neighbour (as step_boxes
// takes them), made one cell short on its first grown side.
void shorten_grown_box(Box& box, const std::array<bool, 6>& sides);

} // namespace stencil
