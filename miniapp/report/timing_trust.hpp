// How far a run's timings carry, for the report: the timed window (the
// slowest rank's timed steps added up, every window started by all ranks
// together), the step's spread across the ranks, a warning where the window
// is too short for its figure to be published, and the trials behind the
// auto choices.
#pragma once

#include "config/run_plan.hpp"
#include "io/checked_io.hpp"
#include "step/speed_check.hpp"

#include <string>
#include <vector>

namespace stencil {

// Under this many seconds of timed steps, a figure carries the first
// steps' and the clocks' noise: the report warns.
inline constexpr double kShortWindowSeconds = 0.5;
// What the warning asks for instead.
inline constexpr double kTrustedWindowSeconds = 1.0;

struct TimingTrust {
    double window_s = 0;    // the slowest rank's timed steps, added up
    int steps = 0;          // timed steps
    int first_step = 0;     // the step they follow (a restart's checkpoint; else 0)
    double step_min_ms = 0; // the fastest and the slowest rank's mean step
    double step_max_ms = 0;
    double rank_spread() const { return step_max_ms > 0 ? 1 - step_min_ms / step_max_ms : 0; }
    SpeedCheck speed; // the check before the warm-up against the setting's trial (main.cpp)
};

// The warning for a window shorter than kShortWindowSeconds, naming the
// --steps that would make it kTrustedWindowSeconds; "" where it is long
// enough (or nothing was timed).
std::string short_window_warning(const TimingTrust& trust);

// The warning for steps slower than the setting's trial by more than
// kSlowerThanTrial: the warm-up's last window (the check gave up), or else
// the timed steps themselves; "" where neither is, or nothing was timed.
std::string slow_steps_warning(const TimingTrust& trust);

// The report's lines: the window and the spread across ranks; the trials.
void print_timing_trust(const TimingTrust& trust);
void print_trials(const std::vector<TrialRecord>& trials);

// The same for the JSON report.
Json timing_trust_json(const TimingTrust& trust);
Json trials_json(const std::vector<TrialRecord>& trials);

} // namespace stencil
