// The speed check: whether the run's steps come at the speed its setting
// showed in the auto choices' trial. Through NCCL on four H100s, one
// simulation in three or four ran every step up to 1.6x slower than
// another of the same setting, for as long as it lived, the final run's
// as often as a trial's (docs/data/nccl-spells-2026-11-28). Before the
// warm-up, the run's simulation steps in windows that every rank starts
// together until one comes within kSlowerThanTrial of the trial; one that
// stays slow for kRenewAfterSeconds is made anew, up to kMaxRenewals
// times, within kSpeedCheckSeconds in all. The report says what happened.
#pragma once

#include <functional>
#include <memory>

namespace stencil {

class Simulation;

// A window this much slower than the trial is slow.
inline constexpr double kSlowerThanTrial = 0.15;
// Slow this long, a simulation is made anew; at most this many times.
inline constexpr double kRenewAfterSeconds = 0.5;
inline constexpr int kMaxRenewals = 3;
// The most the check takes.
inline constexpr double kSpeedCheckSeconds = 10;

struct SpeedCheck {
    double trial_ms = 0; // the setting's trial (0: none was timed, nothing checked)
    double first_ms = 0; // the check's first window, and its last
    double last_ms = 0;
    int windows = 0;    // windows timed
    int renewals = 0;   // simulations made anew
    double seconds = 0; // the check's wall time
    bool checked() const { return trial_ms > 0 && windows > 0; }
    bool slow() const { return checked() && last_ms > (1 + kSlowerThanTrial) * trial_ms; }
};

// What the check does, given to the rule below: time one window (ms a
// step), read the clock (s), make the simulation anew (false where it
// cannot be), and whether a stop signal came.
struct SpeedCheckActions {
    std::function<double()> window_ms;
    std::function<double()> clock_s;
    std::function<bool()> renew;
    std::function<bool()> stop;
};

// The rule, apart from the GPU: windows until one is within
// kSlowerThanTrial of `trial_ms`, kSpeedCheckSeconds pass or a stop signal
// comes; renewing after each kRenewAfterSeconds of slow windows, up to
// kMaxRenewals. Nothing is timed where trial_ms is 0.
SpeedCheck check_speed(double trial_ms, const SpeedCheckActions& act);

// Collective over MPI_COMM_WORLD: the check on `sim`'s own steps, in
// aligned windows of about 20 ms (step/trial.hpp), every rank getting the
// same answer; `make` builds a new simulation in its place (null: never);
// `stop_seen_here`: whether this rank saw a stop signal, which the ranks
// agree on after each window. The steps are undone (Simulation::rewind)
// before it returns.
SpeedCheck check_speed(std::unique_ptr<Simulation>& sim, double trial_ms,
                       const std::function<std::unique_ptr<Simulation>()>& make,
                       const std::function<bool()>& stop_seen_here);

} // namespace stencil
