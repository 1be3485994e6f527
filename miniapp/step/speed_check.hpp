// The warm-up's speed check: whether the run's steps come at the speed its
// setting showed in the auto choices' trial. A node can run every setting
// up to 1.6x slower for seconds at a time (NCCL on 4 H100s:
// docs/data/nccl-speeds-2026-11-28); a run that starts in such a spell would
// otherwise time it and report it as the setting's speed. So the warm-up
// goes on, in windows that every rank starts together, until a window
// comes within kSlowerThanTrial of the trial or kSpeedCheckSeconds have
// passed, and the report says which.
#pragma once

#include <functional>

namespace stencil {

class Simulation;

// A window this much slower than the trial is slow.
inline constexpr double kSlowerThanTrial = 0.15;
// The most the check adds to the warm-up.
inline constexpr double kSpeedCheckSeconds = 10;

struct SpeedCheck {
    double trial_ms = 0; // the setting's trial (0: none was timed, nothing checked)
    double first_ms = 0; // the check's first window, and its last
    double last_ms = 0;
    int windows = 0;    // windows timed
    double seconds = 0; // their wall time, added to the warm-up
    bool checked() const { return trial_ms > 0 && windows > 0; }
    bool slow() const { return checked() && last_ms > (1 + kSlowerThanTrial) * trial_ms; }
};

// The rule, apart from the GPU: windows from `next_window_ms` until one is
// within kSlowerThanTrial of `trial_ms`, `clock_s` passes
// kSpeedCheckSeconds, or `stop` says a stop signal came (asked between
// windows). Nothing is timed where trial_ms is 0.
SpeedCheck check_speed(double trial_ms, const std::function<double()>& next_window_ms,
                       const std::function<double()>& clock_s, const std::function<bool()>& stop);

// Collective over MPI_COMM_WORLD: the check on `sim`'s own steps, in
// aligned windows of about 20 ms (step/trial.hpp), every rank getting the
// same answer. The caller rewinds the steps afterwards, as the warm-up's.
SpeedCheck check_speed(Simulation& sim, double trial_ms, const std::function<bool()>& stop);

} // namespace stencil
