// The rules that keep a slow simulation from deciding or timing a run:
// the second look at a default that lost its trial, and the speed check
// before the warm-up (step/trial.hpp, step/speed_check.hpp), each driven
// by scripted timings, apart from any GPU.
#include "report/timing_trust.hpp"
#include "step/speed_check.hpp"
#include "step/trial.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <vector>

namespace stencil {
namespace {

Trial trial(double ms) {
    Trial t;
    t.step_ms = ms;
    return t;
}

// A slow simulation timed the default's first trial (1.4 against 1.0): the
// alternative (1.1) won, and the second look takes the default back.
TEST(SecondLook, TheDefaultTimedAgainWhereTheAlternativeWon) {
    Trial preferred = trial(1.4);
    std::optional<Trial> again;
    int timed = 0;
    const auto time_again = [&](double ms) { return [&timed, ms] { return ++timed, trial(ms); }; };
    EXPECT_EQ(compare_with_second_look(preferred, trial(1.1), 0.02, time_again(1.0), again),
              TrialVerdict::KeepDefault);
    ASSERT_TRUE(again);
    EXPECT_DOUBLE_EQ(preferred.step_ms, 1.0);
    EXPECT_EQ(timed, 1);
    // A second look that is no faster leaves the first trial and the verdict.
    preferred = trial(1.4);
    EXPECT_EQ(compare_with_second_look(preferred, trial(1.1), 0.02, time_again(1.5), again),
              TrialVerdict::TakeAlternative);
    EXPECT_DOUBLE_EQ(preferred.step_ms, 1.4);
    // Where the default wins, nothing is timed again.
    preferred = trial(1.0);
    EXPECT_EQ(compare_with_second_look(preferred, trial(1.1), 0.02, time_again(0.5), again),
              TrialVerdict::KeepDefault);
    EXPECT_FALSE(again);
    EXPECT_EQ(timed, 2);
}

// The speed check's actions, scripted: each window takes 0.1 s and comes
// from the current simulation's list in `sims`, its last value repeated; a
// renewal moves to the next list.
struct ScriptedCheck {
    std::vector<std::vector<double>> sims; // each simulation's windows, the last repeated
    std::size_t sim = 0, next = 0;
    double now = 0;
    bool renewable = true, stop = false;
    int renewals = 0, windows = 0;
    SpeedCheckActions actions() {
        return {[this] {
                    ++windows, now += 0.1;
                    const std::vector<double>& w = sims.at(sim);
                    return w.at(std::min(next++, w.size() - 1));
                },
                [this] { return now; },
                [this] {
                    if (!renewable) return false;
                    ++renewals, sim = std::min(sim + 1, sims.size() - 1), next = 0;
                    return true;
                },
                [this] { return stop; }};
    }
};

TEST(SpeedCheck, WindowsUntilOneComesAtTheTrialsSpeed) {
    ScriptedCheck script{{{1.5, 1.4, 1.1, 1.0}}};
    const SpeedCheck s = check_speed(1.0, script.actions());
    EXPECT_EQ(s.windows, 3);
    EXPECT_DOUBLE_EQ(s.first_ms, 1.5);
    EXPECT_DOUBLE_EQ(s.last_ms, 1.1);
    EXPECT_EQ(s.renewals, 0);
    EXPECT_FALSE(s.slow());
    // No trial: nothing timed.
    ScriptedCheck none{{{1.5}}};
    EXPECT_FALSE(check_speed(0, none.actions()).checked());
    EXPECT_EQ(none.windows, 0);
}

// A simulation slow for as long as it lives (NCCL on four H100s): made anew
// after kRenewAfterSeconds of slow windows, until one comes at the speed.
TEST(SpeedCheck, ASlowSimulationIsMadeAnew) {
    ScriptedCheck script{{{1.5}, {1.6}, {1.02}}};
    const SpeedCheck s = check_speed(1.0, script.actions());
    EXPECT_EQ(s.renewals, 2);
    EXPECT_FALSE(s.slow());
    EXPECT_LE(s.seconds, 3 * kRenewAfterSeconds + 0.25);
}

TEST(SpeedCheck, GivesUpAfterItsTimeOrAStopAndSaysSo) {
    ScriptedCheck slow{{{1.5}}};
    SpeedCheck s = check_speed(1.0, slow.actions());
    EXPECT_TRUE(s.slow());
    EXPECT_EQ(s.renewals, kMaxRenewals);
    EXPECT_NEAR(s.seconds, kSpeedCheckSeconds, 0.15);
    TimingTrust trust;
    trust.speed = s;
    EXPECT_NE(slow_steps_warning(trust).find("50% slower"), std::string::npos);
    ScriptedCheck stopped{{{1.5}}};
    stopped.stop = true;
    EXPECT_EQ(check_speed(1.0, stopped.actions()).windows, 1);
    ScriptedCheck fixed{{{1.5}}}; // a simulation that cannot be made anew
    fixed.renewable = false;
    EXPECT_EQ(check_speed(1.0, fixed.actions()).renewals, 0);
    // At the trial's speed in the check, then timed steps 20% slower:
    // warned; 10% slower: not.
    trust.speed = SpeedCheck{};
    trust.speed.trial_ms = trust.speed.first_ms = trust.speed.last_ms = 1.0;
    trust.speed.windows = 1;
    trust.step_max_ms = 1.2;
    EXPECT_NE(slow_steps_warning(trust).find("timed steps ran 20% slower"), std::string::npos);
    trust.step_max_ms = 1.1;
    EXPECT_EQ(slow_steps_warning(trust), "");
}

} // namespace
} // namespace stencil
