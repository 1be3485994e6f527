// Private to miniapp/simulation*.cpp: the state of one Simulation.
#pragma once

#include "simulation.hpp"
#include "stencil.hpp"

#include <array>
#include <functional>
#include <memory>
#include <vector>

namespace stencil {

// A box the wave update covers, with the launch shape it runs: resolved once
// at setup (wave_tuning asks the occupancy API), not every step.
struct UpdateBox {
    Box box;
    Tuning tuning;
};

// The events of one step. They are read up to HaloExchange::kTimingSlots - 1
// steps later, so the time loop never waits for the device only to read its
// timers.
struct StepTimers {
    Event interior_start, interior_stop, boundary_start, boundary_stop;
    Event done;                          // the step's last work on the compute stream
    bool timed = false, sampled = false; // sampled: the phase events were recorded
};

// The wave update over one box, with the radius already fixed (dispatched once).
using UpdateFn = std::function<void(FieldView<const float>, FieldView<float>,
                                    FieldView<const float>, const UpdateBox&, Stream&)>;

struct Simulation::Impl {
    Config config;
    Physics physics;
    Decomposition d;
    Layout layout;
    DeviceArray<float> fields[2]; // p and p_prev; the update writes p_next over p_prev
    DeviceArray<float> vel;       // dt^2 c^2
    DeviceArray<unsigned long long> nan_counter{1}; // scratch of the NaN/Inf check
    int current = 0;                                // index of p in fields
    Stream compute{StreamPriority::Normal};
    Stream halo{StreamPriority::High};
    std::unique_ptr<HaloExchange> exchange;
    static constexpr int kSlots = HaloExchange::kTimingSlots;
    std::array<StepTimers, kSlots> timers; // step n in timers[n % kSlots]
    Event first_start;                     // the "done" before step 0
    int collected = 0;                     // steps whose timers were read
    int timed_steps = 0;                   // enqueued, for the phase sampling
    UpdateBox whole, inner;
    std::vector<UpdateBox> slabs; // the shell whole - inner, as non-overlapping boxes
    bool owns_source = false;
    int source_local[3] = {0, 0, 0};
    UpdateFn update;
    PhaseTotals totals;
    int steps_done = 0;

    FieldView<float> view(int which) { return view_of(fields[which].data(), layout); }
    FieldView<const float> vel_view() {
        return view_of(static_cast<const float*>(vel.data()), layout);
    }
    FieldView<float> view(int which) const {
        return view_of(const_cast<float*>(fields[which].data()), layout);
    }

    void setup_boxes();
    void setup_fields();
    void step(bool timed);
    // The event the next step's work waits for: the last step's done.
    Event& last_done() { return steps_done ? timers[(steps_done - 1) % kSlots].done : first_start; }
    // Waits for step n and adds its phases to totals (steps in order).
    void collect(int n);
    // Waits for every step enqueued, and the compute stream's work after
    // them: before the host reads a field.
    void settle();
    std::vector<float> local_interior(); // settles first
};

} // namespace stencil
