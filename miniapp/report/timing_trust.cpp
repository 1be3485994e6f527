#include "report/timing_trust.hpp"

#include <cmath>
#include <cstdio>

namespace stencil {

std::string short_window_warning(const TimingTrust& trust) {
    if (trust.steps <= 0 || trust.window_s <= 0 || trust.window_s >= kShortWindowSeconds) return {};
    const double step_s = trust.window_s / trust.steps;
    // --steps counts from step 0, the timed steps from a restart's step.
    const long long wanted =
        trust.first_step + std::llround(std::ceil(kTrustedWindowSeconds / step_s));
    char line[256];
    std::snprintf(line, sizeof line,
                  "the timed steps took %.3g s on the slowest rank: under %.1f s a step time "
                  "carries the clocks' and the first steps' noise; for a figure to publish, "
                  "run --steps %lld or more (about %.0f s)",
                  trust.window_s, kShortWindowSeconds, wanted, kTrustedWindowSeconds);
    return line;
}

std::string slow_steps_warning(const TimingTrust& trust) {
    const SpeedCheck& s = trust.speed;
    if (!(s.trial_ms > 0)) return {};
    char line[320];
    if (s.slow()) {
        std::snprintf(line, sizeof line,
                      "the steps stayed %.0f%% slower than this setting's trial (%.4g against "
                      "%.4g ms) for %.1f s and %d new simulations: the node ran slow, and the "
                      "timed steps may show that rather than the setting; rerun for a figure "
                      "to publish",
                      100 * (s.last_ms / s.trial_ms - 1), s.last_ms, s.trial_ms, s.seconds,
                      s.renewals);
        return line;
    }
    if (trust.step_max_ms > (1 + kSlowerThanTrial) * s.trial_ms) {
        std::snprintf(line, sizeof line,
                      "the timed steps ran %.0f%% slower than this setting's trial (%.4g against "
                      "%.4g ms): the node ran slow for a while; rerun for a figure to publish",
                      100 * (trust.step_max_ms / s.trial_ms - 1), trust.step_max_ms, s.trial_ms);
        return line;
    }
    return {};
}

void print_timing_trust(const TimingTrust& trust) {
    std::printf("  timed %d step%s in %.3f s (slowest rank; the ranks start them together); "
                "step across ranks %.4f-%.4f ms, %.1f%% apart\n",
                trust.steps, trust.steps == 1 ? "" : "s", trust.window_s, trust.step_min_ms,
                trust.step_max_ms, 100 * trust.rank_spread());
    const SpeedCheck& s = trust.speed;
    if (s.checked())
        std::printf("  speed check before the warm-up: %d window%s in %.2f s, %d simulation%s made "
                    "anew; the first %.4g ms and the last %.4g ms a step against the setting's "
                    "trial, %.4g ms\n",
                    s.windows, s.windows == 1 ? "" : "s", s.seconds, s.renewals,
                    s.renewals == 1 ? "" : "s", s.first_ms, s.last_ms, s.trial_ms);
}

void print_trials(const std::vector<TrialRecord>& trials) {
    if (trials.empty()) return;
    std::printf("  trials of the auto choices (ms per step of the slowest rank, median of the "
                "windows; spread: the middle windows' range):\n");
    for (const TrialRecord& t : trials) {
        std::printf("    %-36s %9.4f ms  spread %4.1f%%  windows of %d steps:", t.setting.c_str(),
                    t.step_ms, 100 * t.spread, t.window_steps);
        for (const double w : t.windows_ms)
            std::printf(" %.4g", w);
        std::printf("\n");
    }
}

namespace {

Json speed_check_json(const TimingTrust& trust) {
    const SpeedCheck& s = trust.speed;
    if (!(s.trial_ms > 0)) return Json();
    const std::string warning = slow_steps_warning(trust);
    return {{"trial_ms", s.trial_ms},
            {"first_window_ms", s.first_ms},
            {"last_window_ms", s.last_ms},
            {"windows", s.windows},
            {"renewals", s.renewals},
            {"seconds", s.seconds},
            {"slow_warning", warning.empty() ? Json() : Json(warning)}};
}

} // namespace

Json timing_trust_json(const TimingTrust& trust) {
    const std::string warning = short_window_warning(trust);
    return {{"timed_steps", trust.steps},
            {"timed_window_s", trust.window_s},
            {"step_rank_spread", trust.rank_spread()},
            {"timing_warning", warning.empty() ? Json() : Json(warning)},
            {"speed_check", speed_check_json(trust)}};
}

Json trials_json(const std::vector<TrialRecord>& trials) {
    Json list = Json::array();
    for (const TrialRecord& t : trials)
        list.push_back({{"setting", t.setting},
                        {"step_ms", t.step_ms},
                        {"spread", t.spread},
                        {"windows_ms", t.windows_ms},
                        {"window_steps", t.window_steps}});
    return list;
}

} // namespace stencil
