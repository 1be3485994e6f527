// What every part of a run reads and none changes once the plan is made:
// what the user asked for (Options), what the run decided from it and the
// job (RunPlan), and the physics. Passed as one where the three went
// together; the trials and --check's one-domain reference make a context
// of their own around a changed copy of the plan.
#pragma once

#include "config/model.hpp"
#include "config/options.hpp"
#include "config/run_plan.hpp"

namespace stencil {

struct RunContext {
    const Options& options;
    const RunPlan& plan;
    const Physics& physics;
};

} // namespace stencil
