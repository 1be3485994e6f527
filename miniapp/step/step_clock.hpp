// The step's clock (SimulationOf<T>'s): each step's events in a ring of
// slots, read back up to kHaloTimingSlots - 1 steps later so that the time
// loop never waits for the device only to read its timers; the windows
// every rank starts together (Simulation::start_window), whose first step
// is measured from the window's start rather than from its predecessor's
// end; which steps' phases are sampled; and the totals they add up to.
#pragma once

#include "halo_exchange.hpp"
#include "step/simulation.hpp"
#include "stream.hpp"

#include <array>

namespace stencil {

// The events of one step.
struct StepTimers {
    Event interior_start, interior_stop, boundary_start, boundary_stop;
    Event done;                          // the step's last work on the compute stream
    bool recorded = true;                // done was recorded: a chunk's last step only
    bool timed = false, sampled = false; // sampled: the phase events were recorded
    bool exchanged = false;              // the step exchanged halos (deep halos: 1 in k)
    bool has_boundary = false;           // the step updated the shell apart (Boundary)
};

class StepClock {
public:
    static constexpr int kSlots = kHaloTimingSlots;

    // `depth`: the halo depth k; phases are sampled a whole k-step cycle at
    // a time, one cycle in kPhaseSampling, so that every step of the cycle
    // counts alike and the events cost what they cost at k = 1. Which
    // steps are sampled follows the step's number (sampled()), so that a
    // graph of several steps holds the same ones every time it is replayed.
    explicit StepClock(int depth) : depth_(depth) {}

    // Before step `n` (since the start, a rewind or a restore) is enqueued:
    // `collect(m)` for every step whose slot it reuses, then its timers,
    // and the window's start recorded on `compute` where it opens one.
    template <class Collect>
    StepTimers& begin(int n, bool timed, Stream& compute, Collect&& collect) {
        // Step n - kSlots + 1 measures itself from the done of step n - kSlots,
        // whose slot this step is about to reuse: read it now.
        while (collected_ <= n - kSlots + 1)
            collect(collected_);
        StepTimers& t = timers_[std::size_t(n % kSlots)];
        t.timed = timed;
        t.sampled = sampled(n, timed);
        if (n == 0 || window_pending_) { // not the time spent on setup or waiting
            window_start_.record(compute);
            window_pending_ = false;
            read_until_ms_ = 0, timed_unrecorded_ = 0;
        }
        return t;
    }

    // Whether step n (since the start, a rewind or a restore) records its
    // phases' events when `timed`.
    bool sampled(int n, bool timed) const { return timed && n / depth_ % kPhaseSampling == 0; }
    // The timers of step n's slot, whatever step last used them.
    StepTimers& slot_of(int n) { return timers_[std::size_t(n % kSlots)]; }

    // Waits for step n, adds its time to the totals, and returns its timers
    // where its phases were sampled (the caller adds those), else null. A
    // step that recorded no done (inside a chunk) waits for its phases'
    // events only, and its time comes with the next step that recorded one.
    StepTimers* read(int n);
    int collected() const { return collected_; }

    // The next step opens a window (every rank has reached it).
    void open_window() { window_pending_ = true; }
    // Back to step 0: no step in flight, the totals cleared.
    void reset();
    PhaseTotals& totals() { return totals_; }

private:
    std::array<StepTimers, kSlots> timers_; // step n in timers_[n % kSlots]
    int depth_;
    int collected_ = 0;           // steps whose timers were read
    Event window_start_;          // the current window's steps are measured from here
    bool window_pending_ = false; // a window opened, its first step not yet enqueued
    // The last done read, in ms after the window's start; the timed steps
    // read since then whose own done was not recorded.
    double read_until_ms_ = 0;
    int timed_unrecorded_ = 0;
    PhaseTotals totals_;
};

} // namespace stencil
