// SimulationOf<T>'s time step: both schedules (overlap on and off), the
// steps between deep halos' exchanges, plain launches or replayed graphs,
// and the step timers.
#include "step/simulation.hpp"
#include "step/simulation_impl.hpp"

#include "field_ops.hpp"
#include "stencil.hpp"

#include <algorithm>
#include <cmath>

namespace stencil {

template <class T>
void SimulationOf<T>::shapes_changed() {
    slab_tables_ = wave_tables(layout_, slabs_, kLanes<T>);
    for (auto* set : {&front_graphs_, &back_graphs_}) {
        set->clear();
        set->resize(std::size_t(2 * graph_period()));
    }
}

template <class T>
void SimulationOf<T>::enqueue_front(StepTimers& t, bool sampled, FieldView<T> p,
                                    FieldView<T> next) {
    if (exchange_->moves_data()) {
        // After the previous step, whose last work is on the compute stream.
        halo_.wait_for(compute_);
        if (plan_.aids.poison_halo()) exchange_->poison_halo(p, next); // test aid
        exchange_->pack(p, next, sampled);
        // From k = 3 on, the pack reads p(t_n-1) (in `next`) deeper than R
        // into the interior, where the interior update writes.
        if (options_.overlap && depth_ >= 3) compute_.wait_for(halo_);
    }
    if (!options_.overlap) return;
    // Enqueued before post(), where the host waits for the pack: the
    // interior reads only owned cells of p and writes next, which the
    // exchange never touches, so the device need not idle while the host
    // posts.
    if (sampled) t.interior_start.record(compute_);
    update_(p, next, vel_view(), inner_, compute_);
    if (sampled) t.interior_stop.record(compute_);
}

template <class T>
void SimulationOf<T>::enqueue_back(StepTimers& t, bool sampled, FieldView<T> p, FieldView<T> next) {
    exchange_->unpack(p, next, sampled);
    // The boundary follows the unpack on the high-priority halo stream, so
    // it starts as soon as the halos are in, alongside the interior's last
    // blocks rather than behind them. With nothing exchanged, on compute.
    Stream& stream = exchange_->moves_data() ? halo_ : compute_;
    auto mark = [&](Event& e) {
        if (sampled) e.record(stream);
    };
    if (options_.overlap) {
        mark(t.boundary_start);
        update_tables_(p, next, vel_view(), slab_tables_, stream);
        mark(t.boundary_stop);
    } else {
        mark(t.interior_start);
        update_(p, next, vel_view(), whole_, stream);
        mark(t.interior_stop);
        mark(t.boundary_start);
        mark(t.boundary_stop);
    }
}

template <class T>
void SimulationOf<T>::enqueue_ring(StepTimers& t, bool sampled, FieldView<T> p, FieldView<T> next,
                                   int phase) {
    auto mark = [&](Event& e) {
        if (sampled) e.record(compute_);
    };
    mark(t.interior_start);
    update_(p, next, vel_view(), ring_[std::size_t(phase - 1)], compute_);
    mark(t.interior_stop);
    mark(t.boundary_start);
    mark(t.boundary_stop);
    enqueue_source(next, phase);
}

template <class T>
void SimulationOf<T>::enqueue_source(FieldView<T> next, int phase) {
    if (adds_source_)
        launch_add_source(next, source_cells_[std::size_t(phase)], source_, source_step_.data(),
                          compute_);
}

template <class T>
int SimulationOf<T>::graph_period() const {
    int period = kSlots;
    while (period % depth_)
        period += kSlots;
    return period;
}

template <class T>
template <class F>
void SimulationOf<T>::replay(std::vector<Graph>& graphs, bool sampled, Stream& stream,
                             F&& enqueue) {
    // Both twins at once, so that the timed steps never pay for a capture
    // (the warm-up steps meet every slot and time level, and at k = 1, 2
    // or 4 every step of the cycle).
    if (!graphs[std::size_t(graph_index(false))].ready())
        for (const bool with_events : {false, true})
            graphs[std::size_t(graph_index(with_events))] =
                Graph::capture(stream, [&] { enqueue(with_events); });
    graphs[std::size_t(graph_index(sampled))].launch(stream);
}

template <class T>
void SimulationOf<T>::step(bool timed) {
    // Step n - kSlots + 1 measures itself from the done of step n - kSlots,
    // whose slot this step is about to reuse: read it now.
    while (collected_ <= steps_done_ - kSlots + 1)
        collect(collected_);
    const int slot = steps_done_ % kSlots, phase = steps_done_ % depth_;
    StepTimers& t = timers_[slot];
    t.timed = timed;
    // Phases are sampled a whole k-step cycle at a time, one cycle in
    // kPhaseSampling, so that every step of the cycle counts alike and the
    // events cost what they cost at k = 1.
    t.sampled = timed && timed_steps_ / depth_ % kPhaseSampling == 0;
    t.exchanged = phase == 0 && exchange_->moves_data();
    timed_steps_ += timed;
    if (steps_done_ == 0) first_start_.record(compute_); // not the time spent on setup
    const FieldView<T> p = view(current_), next = view(1 - current_);
    if (phase > 0) {
        // Between exchanges: the ring, which reads only what the steps
        // before it left valid, all on the compute stream.
        if (!graphs_)
            enqueue_ring(t, t.sampled, p, next, phase);
        else
            replay(front_graphs_, t.sampled, compute_,
                   [&](bool sampled) { enqueue_ring(t, sampled, p, next, phase); });
    } else if (!graphs_) {
        exchange_->begin(p, next, slot);
        enqueue_front(t, t.sampled, p, next);
        exchange_->post();
        exchange_->wait();
        enqueue_back(t, t.sampled, p, next);
        if (exchange_->moves_data()) compute_.wait_for(halo_);
        enqueue_source(next, 0);
    } else if (exchange_->host_between()) {
        // MPI: one graph up to the pack and the interior, the host's part of
        // the exchange, then one graph for the unpack and the boundary.
        exchange_->begin(p, next, slot);
        replay(front_graphs_, t.sampled, compute_, [&](bool sampled) {
            enqueue_front(t, sampled, p, next);
            compute_.wait_for(halo_); // a capture ends with its forks joined
        });
        exchange_->post();
        exchange_->wait();
        replay(back_graphs_, t.sampled, halo_,
               [&](bool sampled) { enqueue_back(t, sampled, p, next); });
        compute_.wait_for(halo_);
        enqueue_source(next, 0); // a launch of its own, after both streams' graphs
    } else {
        // NCCL's exchange is stream-ordered, so the whole step, source
        // included, is one graph; so is a step with nothing to exchange.
        exchange_->begin(p, next, slot);
        replay(front_graphs_, t.sampled, compute_, [&](bool sampled) {
            enqueue_front(t, sampled, p, next);
            exchange_->post();
            enqueue_back(t, sampled, p, next);
            if (exchange_->moves_data()) compute_.wait_for(halo_);
            enqueue_source(next, 0);
        });
    }
    t.done.record(compute_);
    current_ = 1 - current_;
    ++steps_done_;
}

template <class T>
void SimulationOf<T>::collect(int n) const {
    StepTimers& t = timers_[n % kSlots];
    const Event& before = n ? timers_[(n - 1) % kSlots].done : first_start_;
    t.done.synchronize();
    collected_ = n + 1;
    if (!t.timed) return;
    // Done to done on the compute stream: the step as the device saw it,
    // host gaps between steps included.
    totals_.step += elapsed_ms(before, t.done);
    ++totals_.steps;
    if (!t.sampled) return;
    if (t.exchanged) {
        const HaloPhaseTimes h = exchange_->times(n % kSlots);
        totals_.pack += h.pack, totals_.post += h.post, totals_.wait += h.wait,
            totals_.unpack += h.unpack;
    }
    totals_.interior += elapsed_ms(t.interior_start, t.interior_stop);
    totals_.boundary += elapsed_ms(t.boundary_start, t.boundary_stop);
    ++totals_.sampled;
}

template <class T>
void SimulationOf<T>::settle_timers() const {
    while (collected_ < steps_done_)
        collect(collected_);
    compute_.synchronize(); // and what followed the last step (receiver samples)
}

template <class T>
void SimulationOf<T>::rewind() {
    settle_timers(); // and so every exchange is complete: nothing reads the fields now
    const std::vector<T> zeros(layout_.allocation(), T(0));
    for (auto& f : fields_)
        copy_to_device(f, zeros.data());
    const long long zero = 0;
    copy_to_device(source_step_, &zero);
    // Step 0 again with p in fields_[0], as the graphs were captured.
    current_ = 0;
    steps_done_ = timed_steps_ = collected_ = first_step_ = 0;
    totals_ = PhaseTotals{};
}

template <class T>
void SimulationOf<T>::restore(int step, const std::vector<double>& p,
                              const std::vector<double>& p_prev) {
    rewind();
    // Halos zero: the Dirichlet boundary, and what the first exchange fills.
    std::vector<T> host(layout_.allocation());
    const Box owned = layout_.interior();
    for (int level = 0; level < 2; ++level) {
        const std::vector<double>& values = level == 0 ? p : p_prev;
        if (values.size() != owned.cells()) fatal("restore: the interior has the wrong size");
        std::fill(host.begin(), host.end(), T(0));
        const FieldView<T> v = view_of(host.data(), layout_);
        std::size_t n = 0;
        for (int k = owned.z0; k < owned.z1; ++k)
            for (int j = owned.y0; j < owned.y1; ++j)
                for (int i = owned.x0; i < owned.x1; ++i)
                    v(i, j, k) = T(values[n++]);
        copy_to_device(fields_[level], host.data()); // p in fields_[0], as current_ = 0 says
    }
    const long long source_steps = step; // the source's clock is the physics time
    copy_to_device(source_step_, &source_steps);
    first_step_ = step;
}

template <class T>
template <class Self>
auto SimulationOf<T>::updated_boxes(Self& self) {
    std::vector<decltype(&self.whole_)> boxes;
    if (!self.options_.overlap) {
        boxes.push_back(&self.whole_);
    } else {
        if (!self.inner_.box.empty()) boxes.push_back(&self.inner_);
        for (auto& slab : self.slabs_)
            boxes.push_back(&slab);
    }
    for (auto& ring : self.ring_)
        boxes.push_back(&ring);
    return boxes;
}

template <class T>
std::vector<LaunchBox> SimulationOf<T>::launch_boxes() const {
    std::vector<LaunchBox> boxes;
    for (const LaunchBox* u : updated_boxes(*this))
        boxes.push_back(*u);
    return boxes;
}

template <class T>
void SimulationOf<T>::set_launch_shape(const std::array<int, 3>& extents, const LaunchShape& shape) {
    for (LaunchBox* u : updated_boxes(*this))
        if (u->box.nx() == extents[0] && u->box.ny() == extents[1] && u->box.nz() == extents[2])
            u->shape = shape;
    shapes_changed();
}

template <class T>
std::size_t SimulationOf<T>::largest_face_bytes() const {
    return sizeof(T) * exchange_->largest_message_cells();
}

template <class T>
void SimulationOf<T>::updated_cells(double& updated, double& owned) const {
    updated = double(whole_.box.cells());
    for (const LaunchBox& r : ring_)
        updated += double(r.box.cells());
    owned = double(depth_) * double(layout_.interior().cells());
}

// The class for both precisions; the setup's and the queries' members are
// instantiated in simulation_setup.cpp and simulation_queries.cpp.
template class SimulationOf<float>;
template class SimulationOf<double>;

std::unique_ptr<Simulation> make_simulation(const Options& options, const RunPlan& plan,
                                            const Physics& physics, MPI_Comm comm) {
    // The one run-time to compile-time precision switch of the mini-app.
    return dispatch_precision(options.precision, [&](auto zero) -> std::unique_ptr<Simulation> {
        using T = decltype(zero);
        return std::make_unique<SimulationOf<T>>(options, plan, physics, comm);
    });
}

} // namespace stencil
