#include "step/step_clock.hpp"

namespace stencil {

StepTimers* StepClock::read(int n) {
    StepTimers& t = timers_[std::size_t(n % kSlots)];
    const Event& before =
        n == window_first_ ? window_start_ : timers_[std::size_t((n - 1) % kSlots)].done;
    t.done.synchronize();
    collected_ = n + 1;
    if (!t.timed) return nullptr;
    // Done to done on the compute stream: the step as the device saw it,
    // host gaps between steps included; a window's first step from the
    // window's start, when every rank had reached it.
    totals_.step += elapsed_ms(before, t.done);
    ++totals_.steps;
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
