#include "step/trial.hpp"

#include "mpi_util.hpp"
#include "step/simulation.hpp"

#include <algorithm>
#include <cmath>

namespace stencil {

int window_repeats(double step_ms) {
    if (!(step_ms > 0)) return 1;
    const double repeats = std::ceil(kTrialWindowMs / (step_ms * kTrialSteps));
    return int(std::clamp(repeats, 1.0, double(kMaxTrialRepeats)));
}

std::vector<double> aligned_windows(Simulation& sim, MPI_Comm comm, int windows, int steps) {
    std::vector<double> mine;
    for (int w = 0; w < windows; ++w) {
        const PhaseTotals before = sim.totals();
        sim.start_window();
        sim.run(steps, true);
        const PhaseTotals& after = sim.totals();
        mine.push_back((after.step - before.step) / std::max(1, after.steps - before.steps));
    }
    std::vector<double> slowest(mine.size());
    MPI_CHECK(
        MPI_Allreduce(mine.data(), slowest.data(), int(mine.size()), MPI_DOUBLE, MPI_MAX, comm));
    return slowest;
}

double median_ms(std::vector<double> windows_ms) {
    if (windows_ms.empty()) return 0;
    std::sort(windows_ms.begin(), windows_ms.end());
    const std::size_t n = windows_ms.size();
    return n % 2 ? windows_ms[n / 2] : 0.5 * (windows_ms[n / 2 - 1] + windows_ms[n / 2]);
}

double window_spread(std::vector<double> windows_ms) {
    const double median = median_ms(windows_ms);
    if (windows_ms.size() < 2 || median <= 0) return 0;
    std::sort(windows_ms.begin(), windows_ms.end());
    const std::size_t n = windows_ms.size(), quarter = n >= 4 ? n / 4 : 0;
    return (windows_ms[n - 1 - quarter] - windows_ms[quarter]) / median;
}

Trial time_trial(const RunContext& run, int depth, bool overlap) {
    const Options& c = run.options;
    const RunPlan& plan = run.plan;
    const Physics& physics = run.physics;
    RunPlan trial_plan = plan;
    trial_plan.halo_depth = depth;
    trial_plan.overlap = overlap;
    // No step hook: a trial times the step alone.
    const auto sim = make_simulation({c, trial_plan, physics}, MPI_COMM_WORLD);
    sim->run(kTrialWarmup, false);
    Trial trial;
    const double probe_ms = aligned_windows(*sim, MPI_COMM_WORLD, 1, kTrialSteps).front();
    trial.window_steps = kTrialSteps * window_repeats(probe_ms);
    trial.windows_ms = aligned_windows(*sim, MPI_COMM_WORLD, kTrialWindows, trial.window_steps);
    trial.step_ms = median_ms(trial.windows_ms);
    trial.spread = window_spread(trial.windows_ms);
    const PhaseTotals& p = sim->totals();
    const double step = p.steps ? p.step / p.steps : 0;
    const double kernels = p.sampled ? (p.interior + p.boundary) / p.sampled : step;
    double exposed = step > 0 ? std::max(0.0, 1.0 - kernels / step) : 0;
    MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &exposed, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD));
    trial.exposed = exposed;
    trial.fused_pack = sim->fused_pack();
    return trial;
}

TrialVerdict compare_trials(const Trial& preferred, const Trial& alternative, double tolerance) {
    const double gain = 1.0 - alternative.step_ms / preferred.step_ms;
    if (!(preferred.step_ms > 0) || !(gain > tolerance)) return TrialVerdict::KeepDefault;
    if (gain <= std::max(preferred.spread, alternative.spread)) return TrialVerdict::WithinSpread;
    return TrialVerdict::TakeAlternative;
}

TrialVerdict compare_with_second_look(Trial& preferred, const Trial& alternative, double tolerance,
                                      const std::function<Trial()>& time_preferred,
                                      std::optional<Trial>& again) {
    again.reset();
    const TrialVerdict first = compare_trials(preferred, alternative, tolerance);
    if (first != TrialVerdict::TakeAlternative) return first;
    again = time_preferred();
    if (again->step_ms > 0 && again->step_ms < preferred.step_ms) preferred = *again;
    return compare_trials(preferred, alternative, tolerance);
}

TrialRecord trial_record(bool overlap, int depth, const std::string& pack, const Trial& trial) {
    std::string setting = std::string("overlap ") + (overlap ? "on" : "off") + ", depth " +
                          std::to_string(depth) + (pack.empty() ? "" : ", pack " + pack);
    return {setting, trial.step_ms, trial.spread, trial.windows_ms, trial.window_steps};
}

TrialRecord second_record(bool overlap, int depth, const std::string& pack, const Trial& trial) {
    TrialRecord record = trial_record(overlap, depth, pack, trial);
    record.setting += ", again";
    return record;
}

} // namespace stencil
