#include "step/step_clock.hpp"

namespace stencil {

StepTimers* StepClock::read(int n) {
    StepTimers& t = timers_[std::size_t(n % kSlots)];
    collected_ = n + 1;
    if (t.recorded) {
        // Done to done on the compute stream: the steps as the device saw
        // them, host gaps between steps included; a window's first step
        // from the window's start, when every rank had reached it. Each
        // done is timed from the window's start, whose event outlives the
        // ring's slots, so a chunk's steps are timed together.
        t.done.synchronize();
        const double at = elapsed_ms(window_start_, t.done);
        if (t.timed) {
            totals_.step += at - read_until_ms_;
            totals_.steps += timed_unrecorded_ + 1;
        }
        read_until_ms_ = at, timed_unrecorded_ = 0;
    } else {
        timed_unrecorded_ += t.timed;
        if (t.sampled) t.interior_stop.synchronize();
        if (t.sampled && t.has_boundary) t.boundary_stop.synchronize();
    }
    if (!t.timed) return nullptr;
    if (!t.sampled) return nullptr;
    totals_.interior += elapsed_ms(t.interior_start, t.interior_stop);
    if (t.has_boundary) totals_.boundary += elapsed_ms(t.boundary_start, t.boundary_stop);
    ++totals_.sampled;
    return &t;
}

void StepClock::reset() {
    collected_ = 0;
    totals_ = PhaseTotals{};
}

} // namespace stencil
