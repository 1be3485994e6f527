// Private to miniapp/simulation*.cpp: the state of one Simulation.
#pragma once

#include "simulation.hpp"
#include "stencil.hpp"

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
    Event ready, interior_start, interior_stop, boundary_start, boundary_stop;
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
    std::vector<float> local_interior() const;
};

} // namespace stencil
