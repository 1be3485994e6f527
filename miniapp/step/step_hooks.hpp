// The one hook a rank's step offers: points at setup where another module
// may look at the step's parts and change its boxes and phase lists, and a
// phase kind (PhaseKind::Hook) at which it may add work to a step. The
// step knows nothing of what a hook does. A run without one gets these
// defaults, which change nothing; the test aids install theirs
// (miniapp/testing/step_aids.hpp).
#pragma once

#include "config/model.hpp"
#include "decomposition.hpp"
#include "face_routes.hpp"
#include "launch_table.hpp"
#include "layout.hpp"
#include "schedule/step_phases.hpp"

#include <array>
#include <memory>
#include <vector>

namespace stencil {

// What a hook may see of a rank's step once its routes and boxes are set.
// The references stay valid for the hook's life: the step owns both.
template <class T>
struct StepParts {
    const Decomposition& decomposition;
    const Layout& layout;
    const Physics& physics;
    FaceRoutes<T>& routes;               // a hook may change the sinks (before the source's cells)
    const std::vector<LaunchBox>& slabs; // the exchange step's boundary slabs
    const std::vector<LaunchBox>& ring;  // the boxes of the deep-halo ring steps
    bool overlapped;                     // the slabs run after the interior
};

template <class T>
class StepHooks {
public:
    virtual ~StepHooks() = default;
    // Setup, in this order. Each box the step grows beyond the interior
    // (deep halos), before the exchange step's box is split into slabs;
    // `sides`: as step_boxes's.
    virtual void box_grown(Box& box, const std::array<bool, 6>& sides) { (void)box, (void)sides; }
    // The step's parts, before the source's cells are found in the sinks.
    virtual void parts_ready(const StepParts<T>& parts) { (void)parts; }
    // Each phase list step_phases() made, the exchange step's first: the
    // hook may reorder it and add Hook phases (Phase::hook_point is its own).
    virtual void schedule_made(std::vector<Phase>& phases) { (void)phases; }

    // Every step, at each Hook phase, enqueued on the phase's stream: `p`
    // is p(t_n), `next` the array the step's update writes.
    virtual void at_phase(int hook_point, FieldView<T> p, FieldView<T> next, Stream& stream) {
        (void)hook_point, (void)p, (void)next, (void)stream;
    }
};

// Makes a rank's hooks in the precision the run picks; make_simulation's
// caller may pass one, and without it the step runs the defaults above.
class StepHookMaker {
public:
    virtual ~StepHookMaker() = default;
    virtual std::unique_ptr<StepHooks<float>> make(float) const = 0;
    virtual std::unique_ptr<StepHooks<double>> make(double) const = 0;
};

} // namespace stencil
