#include "driver.hpp"

#include "mpi_util.hpp"
#include "restart/checkpoint.hpp"
#include "restart/stop_request.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

namespace stencil {
namespace {

// One progress line on stderr from rank 0, at most every c.progress_seconds.
// Its clock starts with the timed steps and counts the steps this run has
// made since `first` (the restart's step), so rate and ETA are this run's.
class Progress {
public:
    Progress(const RunContext& run, int first)
        : enabled_(!run.options.quiet && world_rank() == 0), every_(run.options.progress_seconds),
          dt_(run.physics.dt), first_(first), total_(run.options.steps),
          cells_(double(run.plan.grid[0]) * run.plan.grid[1] * run.plan.grid[2]),
          start_(wall_clock_ms() * 1e-3), last_(start_) {}

    void after_step(int done) {
        if (!enabled_) return;
        const double now = wall_clock_ms() * 1e-3;
        if (now - last_ < every_ && done != total_) return;
        last_ = now;
        const double elapsed = now - start_, rate = elapsed > 0 ? (done - first_) / elapsed : 0;
        std::fprintf(stderr,
                     "progress: step %d/%d  t=%.4g s  elapsed %.1f s  ETA %.1f s  %.3f Gcell/s\n",
                     done, total_, done * dt_, elapsed, rate > 0 ? (total_ - done) / rate : 0.0,
                     cells_ * rate * 1e-9);
    }

private:
    bool enabled_;
    double every_, dt_;
    int first_, total_;
    double cells_, start_, last_;
};

// The checkpoints the loop takes, each timed from the moment every rank is
// ready (the steps before it are settled by then), their wall time and
// size (both time levels of the whole grid) added up in the result.
class Checkpoints {
public:
    Checkpoints(Simulation& sim, Outputs& outputs, const RunContext& run, DriveResult& result)
        : sim_(sim), outputs_(outputs), run_(run), result_(result),
          level_bytes_(double(run.plan.grid[0]) * run.plan.grid[1] * run.plan.grid[2] *
                       element_bytes(run.options.precision)),
          last_(wall_clock_ms() * 1e-3) {}

    // Rank 0's clock asks for one (--checkpoint-every TIME).
    bool wished() const {
        const double every = run_.options.checkpoint_seconds;
        return every > 0 && world_rank() == 0 && wall_clock_ms() * 1e-3 - last_ >= every;
    }

    void take() {
        sim_.settle();
        MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
        const double start = wall_clock_ms();
        write_checkpoint(sim_, outputs_, run_, staging_);
        result_.checkpoint_seconds += (wall_clock_ms() - start) * 1e-3;
        result_.checkpoint_bytes += 2 * level_bytes_;
        ++result_.checkpoints;
        last_ = wall_clock_ms() * 1e-3;
    }

private:
    Simulation& sim_;
    Outputs& outputs_;
    const RunContext run_; // references, copied: the caller may pass a temporary
    DriveResult& result_;
    double level_bytes_;
    CheckpointStaging staging_;
    double last_; // rank 0's clock times TIME intervals
};

// Test aid: the faults planted after step n (--inject-fault fail-rank=N, nan).
void plant_faults(Simulation& sim, const TestAids& aids, const Physics& physics, int n) {
    if (aids.fails(world_rank(), n))
        fatal("injected failure (--inject-fault fail-rank=" + std::to_string(world_rank()) +
              ") at step " + std::to_string(n));
    if (aids.nan_at(n)) sim.set_value_at(physics.source, std::nanf(""));
}

// Whether the field is checked for NaN/Inf after step n: every
// --nan-check steps, after the last, and after the step a planted NaN
// follows.
bool nan_check_due(const Options& c, int n) {
    return c.nan_check_every > 0 &&
           (n % c.nan_check_every == 0 || n == c.steps || n == TestAids::kFaultStep + 1);
}

// Whether step n writes a snapshot: collective I/O that the ranks leave at
// different moments, so the steps after it start a new window.
bool snapshot_due(const Options& c, int n) {
    return c.snapshot_every > 0 && n % c.snapshot_every == 0;
}

// --progress 0 asks for a line after every step.
bool every_step_progress(const Options& c) {
    return c.progress_seconds == 0 && !c.quiet;
}

// The first step from n on after which the host has work: outputs, the
// NaN check, a checkpoint, the stop signals' agreement (with a timed
// checkpoint's wish), a progress line every step (--progress 0), a
// planted fault (test aid), or the last step. The steps before it run in
// one sim.run() call, which may replay several as one graph
// (step/step_chunks.cpp); each of them would find nothing to do.
int next_host_step(const Options& c, const TestAids& aids, const Outputs& outputs, int n) {
    for (;; ++n) {
        const bool host_work = n >= c.steps || nan_check_due(c, n) || outputs.due_after(n) ||
                               (c.checkpoint_every > 0 && n % c.checkpoint_every == 0) ||
                               n % kStopAgreement == 0 || every_step_progress(c) ||
                               aids.nan_at(n) || aids.fails(world_rank(), n);
        if (host_work) return n;
    }
}

// Warm-up steps capture graphs, fill caches and let clocks settle, and are
// then undone: the run's physics is its --steps steps alone, which the
// traces, snapshots and report count. The ranks ask every kStopAgreement
// steps, blocking (the warm-up is not timed, and must know now), whether a
// stop signal came, which cuts the warm-up short; the timed steps then stop
// where their own agreement falls, by step 2 x kStopAgreement. With
// --restart, the run continues after the checkpoint's step `first`; "" or
// why it cannot.
std::string warm_up_and_restore(Simulation& sim, Outputs& outputs, const RunContext& run,
                                StopRequest& stop, int& first) {
    const Options& c = run.options;
    for (int done = 0; done < c.warmup;) {
        // Pieces ending where the timed steps' host work will (outputs
        // included), so that the warm-up steps as they will, one at a time
        // or in chunks, and captures the graphs they replay. The host work
        // of one rank alone (a planted failure) may end its pieces apart,
        // so the ranks ask only at multiples of kStopAgreement, which end
        // every rank's.
        const int host_step = next_host_step(c, run.plan.aids, outputs, done + 1);
        const int piece = std::min({kStopAgreement, c.warmup - done, host_step - done});
        sim.run(piece, false);
        done += piece;
        if (done < c.warmup && done % kStopAgreement == 0 && stop.seen_anywhere()) break;
    }
    if (c.warmup > 0) sim.rewind();
    first = 0;
    if (c.restart.empty()) return {};
    return restore_checkpoint(sim, outputs, run, first);
}

// The NaN check (--nan-check): each due step's count starts on the device
// and is read at the next due step, or before the host writes anything
// (outputs, a checkpoint, the stop), so that a check does not wait for the
// device to drain: that wait cost 0.47 us a step at 64^3 on one H100
// (docs/data/small-box-host-2026-12-06/). A NaN found names the step whose
// count saw it, as a check that waited would; the run has gone on to the
// read, and writes nothing after it.
class NanWatch {
public:
    explicit NanWatch(Simulation& sim) : sim_(sim) {}
    // After step n: reads the count in flight and starts n's, where due.
    // False where a count found a NaN (`result` says where).
    bool after_step(const Options& c, int n, DriveResult& result) {
        if (!nan_check_due(c, n)) return true;
        if (!settle(result)) return false;
        sim_.count_nonfinite_later();
        counted_step_ = n;
        return true;
    }
    // Reads the count in flight, if any: false where it found a NaN.
    bool settle(DriveResult& result) {
        if (counted_step_ < 0) return true;
        const int step = std::exchange(counted_step_, -1);
        const int bad = sim_.first_nonfinite_rank();
        if (bad < 0) return true;
        result.stable = false, result.bad_step = step, result.bad_rank = bad;
        return false;
    }

private:
    Simulation& sim_;
    int counted_step_ = -1; // the step whose count is in flight
};

} // namespace

DriveResult drive(Simulation& sim, const RunContext& run, Outputs& outputs) {
    const Options& c = run.options;
    const RunPlan& plan = run.plan;
    const Physics& physics = run.physics;
    StopRequest stop(MPI_COMM_WORLD);
    DriveResult result;
    int first = 0;
    result.refused = warm_up_and_restore(sim, outputs, run, stop, first);
    if (!result.refused.empty()) return result;
    Checkpoints checkpoints(sim, outputs, run, result);
    plan.aids.hold_back(world_rank()); // test aid: one rank comes late to the timed steps
    // The ranks leave the warm-up, the rewind and a restore at different
    // moments; the timed steps start together, so no rank's first step
    // carries the wait for the others' halos.
    sim.start_window();
    Progress progress(run, first);
    NanWatch nan(sim);
    for (int n = first + 1; n <= c.steps; ++n) {
        const int last = next_host_step(c, plan.aids, outputs, n);
        sim.run(last - n + 1, true);
        result.steps_run += last - n + 1;
        n = last;
        plant_faults(sim, plan.aids, physics, n);
        if (!nan.after_step(c, n, result)) return result;
        if ((outputs.due_after(n) || n == c.steps) && !nan.settle(result)) return result;
        outputs.after_step(n);
        // Rank 0's clock asks for a timed checkpoint; the ranks agree on it
        // with the stop, every kStopAgreement steps (stop_request.hpp).
        const bool wish = checkpoints.wished();
        const StopRequest::Agreement agreed =
            n < c.steps ? stop.agreed_after(n, wish) : StopRequest::Agreement{};
        const bool checkpoint_due =
            (c.checkpoint_every > 0 && n % c.checkpoint_every == 0) || agreed.checkpoint;
        if ((checkpoint_due || agreed.stop) && !nan.settle(result)) return result;
        if (checkpoint_due) checkpoints.take();
        // The report times checkpoints and snapshots apart: the next step is
        // measured from a new start that every rank has reached.
        if ((checkpoint_due || snapshot_due(c, n)) && n < c.steps) sim.start_window();
        progress.after_step(n);
        if (agreed.stop) {
            stop.stopping(); // a second signal now ends the process at once
            result.stopped = true, result.stop_step = n, result.stop_signal = stop.signal_name();
            if (c.checkpoints_on()) {
                if (!checkpoint_due) checkpoints.take();
                result.checkpoint = checkpoint_path(c, n);
            }
            return result;
        }
    }
    outputs.finish(c.steps);
    remove_stale_checkpoints(run);
    return result;
}

} // namespace stencil
