#include "driver.hpp"

#include "restart/checkpoint.hpp"
#include "mpi_util.hpp"
#include "restart/stop_request.hpp"

#include <cmath>
#include <cstdio>

namespace stencil {
namespace {

// One progress line on stderr from rank 0, at most every c.progress_seconds.
class Progress {
public:
    Progress(const Config& c, const Physics& p, int total)
        : enabled_(!c.quiet && world_rank() == 0), every_(c.progress_seconds), dt_(p.dt),
          total_(total), cells_(double(c.grid[0]) * c.grid[1] * c.grid[2]),
          start_(wall_clock_ms() * 1e-3), last_(start_) {}

    void after_step(int done) {
        if (!enabled_) return;
        const double now = wall_clock_ms() * 1e-3;
        if (now - last_ < every_ && done != total_) return;
        last_ = now;
        const double elapsed = now - start_, rate = elapsed > 0 ? done / elapsed : 0;
        std::fprintf(stderr,
                     "progress: step %d/%d  t=%.4g s  elapsed %.1f s  ETA %.1f s  %.3f Gcell/s\n",
                     done, total_, done * dt_, elapsed, rate > 0 ? (total_ - done) / rate : 0.0,
                     cells_ * rate * 1e-9);
    }

private:
    bool enabled_;
    double every_, dt_;
    int total_;
    double cells_, start_, last_;
};

constexpr int kFaultStep = 3;

} // namespace

DriveResult drive(Simulation& sim, const Config& c, const Physics& physics, Outputs& outputs) {
    StopRequest stop(MPI_COMM_WORLD);
    // Warm-up steps capture graphs, fill caches and let clocks settle, and
    // are then undone: the run's physics is its --steps steps alone, which
    // the traces, snapshots and report count.
    if (c.warmup > 0) {
        sim.run(c.warmup, false);
        sim.rewind();
    }
    DriveResult result;
    int first = 0;
    if (!c.restart.empty()) {
        result.refused = restore_checkpoint(sim, outputs, c, physics, first);
        if (!result.refused.empty()) return result;
    }
    // Both time levels of the whole grid per checkpoint, timed from the
    // moment every rank is ready (the steps before it are settled by then).
    const double level_bytes =
        double(c.grid[0]) * c.grid[1] * c.grid[2] * element_bytes(c.precision);
    CheckpointStaging staging;
    double last_checkpoint = wall_clock_ms() * 1e-3; // rank 0's clock times TIME intervals
    const auto timed_checkpoint = [&] {
        sim.settle();
        MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
        const double start = wall_clock_ms();
        write_checkpoint(sim, outputs, c, physics, staging);
        result.checkpoint_seconds += (wall_clock_ms() - start) * 1e-3;
        result.checkpoint_bytes += 2 * level_bytes;
        ++result.checkpoints;
        last_checkpoint = wall_clock_ms() * 1e-3;
    };
    Progress progress(c, physics, c.steps);
    bool after_checkpoint = false;
    for (int n = first + 1; n <= c.steps; ++n) {
        // A step's time runs from the previous step's end: the one after a
        // checkpoint would carry the checkpoint, which the report times apart.
        sim.run(1, !after_checkpoint);
        ++result.steps_run;
        if (n == kFaultStep) {
            if (c.fail_rank == world_rank())
                fatal("injected failure (--inject-fault fail-rank=" + std::to_string(c.fail_rank) +
                      ") at step " + std::to_string(n));
            if (c.inject_nan) sim.set_value_at(physics.source, std::nanf(""));
        }
        if (c.nan_check_every > 0 &&
            (n % c.nan_check_every == 0 || n == c.steps || n == kFaultStep + 1)) {
            const int bad = sim.first_nonfinite_rank();
            if (bad >= 0) {
                result.stable = false, result.bad_step = n, result.bad_rank = bad;
                return result;
            }
        }
        outputs.after_step(n);
        // Rank 0's clock asks for a timed checkpoint; the ranks agree on it
        // with the stop, every kStopAgreement steps (stop_request.hpp).
        const bool wish = c.checkpoint_seconds > 0 && world_rank() == 0 &&
                          wall_clock_ms() * 1e-3 - last_checkpoint >= c.checkpoint_seconds;
        const StopRequest::Agreement agreed =
            n < c.steps ? stop.agreed_after(n, wish) : StopRequest::Agreement{};
        const bool checkpoint_due =
            (c.checkpoint_every > 0 && n % c.checkpoint_every == 0) || agreed.checkpoint;
        if (checkpoint_due) timed_checkpoint();
        after_checkpoint = checkpoint_due;
        progress.after_step(n);
        if (agreed.stop) {
            stop.stopping(); // a second signal now ends the process at once
            result.stopped = true, result.stop_step = n, result.stop_signal = stop.signal_name();
            if (c.checkpoints_on()) {
                if (!checkpoint_due) timed_checkpoint();
                result.checkpoint = checkpoint_path(c, n);
            }
            return result;
        }
    }
    outputs.finish(c.steps);
    return result;
}

} // namespace stencil
