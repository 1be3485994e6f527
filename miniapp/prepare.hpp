// The top floor's first act: the run's plan, built from the options in
// order, each step on what the ones before it decided, before anything is
// allocated; every refusal a user can be given before step 1 comes from
// here.
#pragma once

#include "binding.hpp"
#include "config/model.hpp"
#include "config/options.hpp"
#include "config/run_plan.hpp"
#include "gpu_aware.hpp"
#include "io/output_folder.hpp"

#include <string>

namespace stencil {

// What the run decides and holds before its first step (RunPlan), and
// what it learnt on the way.
struct Prepared {
    RunPlan plan;
    Physics physics;
    GpuAwareness aware;
    Binding binding;
};

// Collective. The grids, the model file, the physics, the outputs (the
// folder, held in `folder_lock` by rank 0 until the run ends, the
// receivers, the run's id), the checkpoint folder (held in
// `checkpoint_lock` where it is not the output folder), the halo path, the
// device, the memory check, the overlap, the halo depth. "" or why the run
// cannot go on (a user error), every rank alike.
std::string prepare(const Options& c, Prepared& run, OutputFolderLock& folder_lock,
                    OutputFolderLock& checkpoint_lock);

} // namespace stencil
