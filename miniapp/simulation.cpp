#include "simulation.hpp"
#include "simulation_impl.hpp"

#include "field_ops.hpp"
#include "stencil.hpp"

#include <algorithm>
#include <cmath>

namespace stencil {

template <class T>
void SimulationOf<T>::setup_boxes() {
    // Only sides with a neighbour exchange, shrink and grow: a physical
    // boundary's halo is zero and never exchanged, so cells next to it need
    // not wait, and no neighbour's cells lie beyond it.
    bool side[6];
    for (int a = 0; a < 3; ++a)
        side[2 * a] = d_.has_neighbour(a, Low), side[2 * a + 1] = d_.has_neighbour(a, High);
    // The box updated s steps after an exchange: the interior grown by
    // (k-1-s)*R on those sides. Each step's stencil reaches R further than
    // the box it updates, which is what the step before it (or the
    // exchange, k*R deep) left valid; the last step updates owned cells only.
    const int R = config_.radius;
    auto ring_box = [&](int s) {
        const int grow = (depth_ - 1 - s) * R;
        int lo[3], hi[3];
        const Box in = layout_.interior();
        const int in_lo[3] = {in.x0, in.y0, in.z0}, in_hi[3] = {in.x1, in.y1, in.z1};
        for (int a = 0; a < 3; ++a)
            lo[a] = in_lo[a] - (side[2 * a] ? grow : 0),
            hi[a] = in_hi[a] + (side[2 * a + 1] ? grow : 0);
        // --inject-fault short-ring: one cell short on the first grown side.
        if (config_.short_ring && grow > 0)
            for (int a = 0; a < 3; ++a)
                if (side[2 * a] || side[2 * a + 1]) {
                    (side[2 * a] ? lo[a] : hi[a]) += side[2 * a] ? 1 : -1;
                    break;
                }
        return Box{lo[0], hi[0], lo[1], hi[1], lo[2], hi[2]};
    };
    whole_.box = ring_box(0);
    // What the exchange step can update before the halos arrive: the
    // interior shrunk by R, which reads owned cells only.
    const ShellSplit split = split_shell(whole_.box, depth_ * R, side);
    inner_.box = split.inner;
    for (const Box& b : split.slabs)
        if (!b.empty()) slabs_.push_back({b, Tuning{}});
    for (int s = 1; s < depth_; ++s)
        ring_.push_back({ring_box(s), Tuning{}});
}

template <class T>
void SimulationOf<T>::setup_source() {
    // The source cell in this rank's padded index space, and along a
    // periodic axis its images one period away, which a rank alone along
    // the axis may hold in its own ring.
    std::vector<int> along[3];
    for (int a = 0; a < 3; ++a) {
        const int local = physics_.source[a] - d_.offset[a] + layout_.halo;
        along[a] = {local};
        if (d_.periodic[a])
            along[a].insert(along[a].end(), {local - d_.global[a], local + d_.global[a]});
    }
    for (int s = 0; s < depth_; ++s) {
        const Box& box = s == 0 ? whole_.box : ring_[std::size_t(s - 1)].box;
        SourceCells cells;
        for (int k : along[2])
            for (int j : along[1])
                for (int i : along[0])
                    if (box.contains(i, j, k) && cells.count < SourceCells::kMax)
                        cells.offset[cells.count++] = (long long)layout_.index(i, j, k);
        adds_source_ = adds_source_ || cells.count > 0;
        source_cells_.push_back(cells);
    }
}

template <class T>
void SimulationOf<T>::shapes_changed() {
    slab_tables_ = wave_tables(layout_, slabs_, kLanes<T>);
    for (auto* set : {&front_graphs_, &back_graphs_}) {
        set->clear();
        set->resize(std::size_t(2 * graph_period()));
    }
}

template <class T>
void SimulationOf<T>::setup_fields() {
    // Device memory first: if it does not fit, the allocator says how much
    // was asked for and how much is free, before any host staging is made.
    for (auto& f : fields_)
        f = DeviceArray<T>(layout_.allocation());
    vel_ = DeviceArray<T>(layout_.allocation());
    std::vector<T> host(layout_.allocation(), T(0));
    for (auto& f : fields_)
        copy_to_device(f, host.data()); // zero halos are the Dirichlet boundary
    // dt^2 c^2 everywhere, the halo included: deep halos update a ring of
    // it, which must see the owner's values (wrapped along a periodic z).
    const FieldView<T> v = view_of(host.data(), layout_);
    const double dt = physics_.dt;
    const int nz = d_.global[2];
    for (int k = 0; k < layout_.pz(); ++k) {
        const int g = k - layout_.halo + d_.offset[2];
        const int gk = d_.periodic[2] ? (g % nz + nz) % nz : std::min(std::max(g, 0), nz - 1);
        const T value = T(std::pow(velocity_at(config_.model, gk, d_.global[2]) * dt, 2));
        for (int j = 0; j < layout_.py(); ++j)
            for (int i = 0; i < layout_.px(); ++i)
                v(i, j, k) = value;
    }
    copy_to_device(vel_, host.data());
}

template <class T>
SimulationOf<T>::SimulationOf(const Config& config, const Physics& physics,
                              const std::array<int, 3>& global, const std::array<int, 3>& procs,
                              MPI_Comm comm, CommMode mode)
    : config_(config), physics_(physics), d_(decompose(comm, global, procs, config.periodic)),
      depth_(std::max(config.halo_depth, 1)),
      layout_(d_.local[0], d_.local[1], d_.local[2], depth_ * config.radius) {
    setup_boxes();
    setup_fields();
    exchange_ = std::make_unique<HaloExchange<T>>(
        d_, layout_, config_.radius, depth_, mode,
        std::vector<T*>{fields_[0].data(), fields_[1].data()}, halo_);
    exchange_->set_drop_one_face(config_.drop_face);
    setup_update(global);
    // Auto: graphs where they measured faster (docs/performance-history.md,
    // "Merged launches and graphs"): steps with nothing to exchange or with
    // NCCL, one graph each; not MPI exchanges, whose two graphs ran 0.5-10%
    // slower than plain launches on 2 x H200 from 256^3 per GPU.
    graphs_ =
        config_.graphs == GraphChoice::On ||
        (config_.graphs == GraphChoice::Auto && graphs_available() && !exchange_->host_between());
    shapes_changed();
    first_start_.record(compute_);
}

template <class T>
void SimulationOf<T>::setup_update(const std::array<int, 3>& global) {
    const int R = config_.radius;
    Sponge sponge;
    sponge.width = config_.sponge;
    sponge.strength = physics_.sponge_strength;
    sponge.halo = layout_.halo;
    for (int a = 0; a < 3; ++a)
        sponge.offset[a] = d_.offset[a], sponge.extent[a] = global[a];
    setup_source();
    source_ = {physics_.dt, physics_.f0, physics_.t0,
               physics_.dt * physics_.dt / std::pow(config_.spacing, 3)};
    const long long zero = 0;
    copy_to_device(source_step_, &zero);
    // The one run-time to compile-time radius switch of the time loop.
    const double h = config_.spacing;
    update_ = dispatch_radius(R, [&](auto radius) -> UpdateFn {
        constexpr int RR = decltype(radius)::value;
        const auto c = make_coefficients<RR, T>(h, h, h);
        for (LaunchBox* u : {&whole_, &inner_})
            u->tuning = wave_tuning<RR, T>(config_.tuning, layout_, u->box);
        for (auto* boxes : {&slabs_, &ring_})
            for (LaunchBox& u : *boxes)
                u.tuning = wave_tuning<RR, T>(config_.tuning, layout_, u.box);
        update_tables_ = [c, sponge](FieldView<const T> p, FieldView<T> prev, FieldView<const T> v,
                                     const std::vector<WaveTable>& tables, Stream& stream) {
            launch_wave_boxes<RR, T>(p, prev, v, tables, c, sponge, stream);
        };
        return [c, sponge](FieldView<const T> p, FieldView<T> prev, FieldView<const T> v,
                           const LaunchBox& u, Stream& stream) {
            launch_wave_step<RR, T>(p, prev, v, u.box, c, sponge, stream, u.tuning);
        };
    });
}

template <class T>
void SimulationOf<T>::enqueue_front(StepTimers& t, bool sampled, FieldView<T> p,
                                    FieldView<T> next) {
    if (exchange_->moves_data()) {
        // After the previous step, whose last work is on the compute stream.
        halo_.wait_for(compute_);
        if (config_.poison_halo) exchange_->poison_halo(p, next);
        exchange_->pack(p, next, sampled);
        // From k = 3 on, the pack reads p(t_n-1) (in `next`) deeper than R
        // into the interior, where the interior update writes.
        if (config_.overlap && depth_ >= 3) compute_.wait_for(halo_);
    }
    if (!config_.overlap) return;
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
    if (config_.overlap) {
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
    // Phases are sampled a whole k-step cycle at a time, so that every step
    // of the cycle counts alike.
    const int sampled_cycles = (kPhaseSampling + depth_ - 1) / depth_;
    t.sampled = timed && timed_steps_ / depth_ % sampled_cycles == 0;
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
        exchange_->begin(p, slot);
        enqueue_front(t, t.sampled, p, next);
        exchange_->post();
        exchange_->wait();
        enqueue_back(t, t.sampled, p, next);
        if (exchange_->moves_data()) compute_.wait_for(halo_);
        enqueue_source(next, 0);
    } else if (exchange_->host_between()) {
        // MPI: one graph up to the pack and the interior, the host's part of
        // the exchange, then one graph for the unpack and the boundary.
        exchange_->begin(p, slot);
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
        exchange_->begin(p, slot);
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
template <class Self>
auto SimulationOf<T>::updated_boxes(Self& self) {
    std::vector<decltype(&self.whole_)> boxes;
    if (!self.config_.overlap) {
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
void SimulationOf<T>::set_launch_shape(const std::array<int, 3>& extents, const Tuning& shape) {
    for (LaunchBox* u : updated_boxes(*this))
        if (u->box.nx() == extents[0] && u->box.ny() == extents[1] && u->box.nz() == extents[2])
            u->tuning = shape;
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

// The class for both precisions; the queries' members are instantiated in
// simulation_queries.cpp.
template class SimulationOf<float>;
template class SimulationOf<double>;

std::unique_ptr<Simulation> make_simulation(const Config& config, const Physics& physics,
                                            const std::array<int, 3>& global,
                                            const std::array<int, 3>& procs, MPI_Comm comm,
                                            CommMode mode) {
    // The one run-time to compile-time precision switch of the mini-app.
    return dispatch_precision(config.precision, [&](auto zero) -> std::unique_ptr<Simulation> {
        using T = decltype(zero);
        return std::make_unique<SimulationOf<T>>(config, physics, global, procs, comm, mode);
    });
}

} // namespace stencil
