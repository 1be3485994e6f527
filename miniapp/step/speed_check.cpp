#include "step/speed_check.hpp"

#include "mpi_util.hpp"
#include "step/trial.hpp"

#include <mpi.h>

namespace stencil {

SpeedCheck check_speed(double trial_ms, const std::function<double()>& next_window_ms,
                       const std::function<double()>& clock_s, const std::function<bool()>& stop) {
    SpeedCheck check;
    check.trial_ms = trial_ms;
    if (!(trial_ms > 0)) return check;
    const double start = clock_s();
    do {
        check.last_ms = next_window_ms();
        if (check.windows++ == 0) check.first_ms = check.last_ms;
        check.seconds = clock_s() - start;
    } while (check.slow() && check.seconds < kSpeedCheckSeconds && !stop());
    return check;
}

SpeedCheck check_speed(Simulation& sim, double trial_ms, const std::function<bool()>& stop) {
    const int steps = kTrialSteps * window_repeats(trial_ms);
    // Rank 0's clock, broadcast: every rank leaves the loop together.
    const auto clock = [] {
        double now = MPI_Wtime();
        MPI_CHECK(MPI_Bcast(&now, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD));
        return now;
    };
    return check_speed(
        trial_ms, [&] { return aligned_windows(sim, MPI_COMM_WORLD, 1, steps).front(); }, clock,
        stop);
}

} // namespace stencil
