#include "step/speed_check.hpp"

#include "mpi_util.hpp"
#include "step/simulation.hpp"
#include "step/trial.hpp"

#include <mpi.h>

namespace stencil {

SpeedCheck check_speed(double trial_ms, const SpeedCheckActions& act) {
    SpeedCheck check;
    check.trial_ms = trial_ms;
    if (!(trial_ms > 0)) return check;
    const double start = act.clock_s();
    double since = start; // this simulation's first window
    for (;;) {
        check.last_ms = act.window_ms();
        if (check.windows++ == 0) check.first_ms = check.last_ms;
        const double now = act.clock_s();
        check.seconds = now - start;
        // Renewed only where the check goes on, so that the report's last
        // window is of the simulation the run keeps.
        if (!check.slow() || check.seconds >= kSpeedCheckSeconds || act.stop()) return check;
        if (now - since >= kRenewAfterSeconds && check.renewals < kMaxRenewals && act.renew())
            ++check.renewals, since = act.clock_s();
    }
}

SpeedCheck check_speed(std::unique_ptr<Simulation>& sim, double trial_ms,
                       const std::function<std::unique_ptr<Simulation>()>& make,
                       const std::function<bool()>& stop_seen_here) {
    const int steps = kTrialSteps * window_repeats(trial_ms);
    // A new simulation's first steps capture its graphs (2.6 ms a step
    // against 0.063 through NCCL on four H100s): they and one window are
    // left out, as a trial's are.
    const auto warm = [&] {
        sim->run(kTrialWarmup, false);
        aligned_windows(*sim, MPI_COMM_WORLD, 1, steps);
    };
    if (trial_ms > 0) warm();
    SpeedCheckActions act;
    act.window_ms = [&] { return aligned_windows(*sim, MPI_COMM_WORLD, 1, steps).front(); };
    act.clock_s = [] { // rank 0's, so that every rank decides alike
        double now = MPI_Wtime();
        MPI_CHECK(MPI_Bcast(&now, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD));
        return now;
    };
    act.renew = [&] {
        if (!make) return false;
        sim.reset(); // its memory first
        sim = make();
        warm();
        return true;
    };
    act.stop = [&] {
        int seen = stop_seen_here();
        MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &seen, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
        return seen != 0;
    };
    const SpeedCheck check = check_speed(trial_ms, act);
    sim->rewind();
    return check;
}

} // namespace stencil
