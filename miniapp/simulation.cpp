#include "simulation.hpp"
#include "simulation_impl.hpp"

#include "field_ops.hpp"
#include "stencil.hpp"

#include <algorithm>
#include <cmath>

namespace stencil {

template <class T>
void SimulationState<T>::setup_boxes() {
    const int R = layout.radius;
    const Box w = layout.interior();
    // Shrink by R only on sides with a neighbour: a physical boundary's halo
    // is zero and never exchanged, so cells next to it need not wait.
    int lo[3], hi[3];
    const int w0[3] = {w.x0, w.y0, w.z0}, w1[3] = {w.x1, w.y1, w.z1};
    for (int a = 0; a < 3; ++a) {
        lo[a] = std::min(w0[a] + (d.has_neighbour(a, Low) ? R : 0), w1[a]);
        hi[a] = std::max(w1[a] - (d.has_neighbour(a, High) ? R : 0), lo[a]);
    }
    const Box in{lo[0], hi[0], lo[1], hi[1], lo[2], hi[2]};
    // z slabs span the whole x-y extent, y slabs the remaining z, x slabs the rest.
    const Box candidates[6] = {
        {w.x0, w.x1, w.y0, w.y1, w.z0, in.z0},     {w.x0, w.x1, w.y0, w.y1, in.z1, w.z1},
        {w.x0, w.x1, w.y0, in.y0, in.z0, in.z1},   {w.x0, w.x1, in.y1, w.y1, in.z0, in.z1},
        {w.x0, in.x0, in.y0, in.y1, in.z0, in.z1}, {in.x1, w.x1, in.y0, in.y1, in.z0, in.z1},
    };
    whole.box = w;
    inner.box = in;
    for (const Box& b : candidates)
        if (!b.empty()) slabs.push_back({b, Tuning{}});
}

template <class T>
void SimulationState<T>::shapes_changed() {
    slab_tables = wave_tables(layout, slabs, kLanes<T>);
    for (auto* graphs : {&front_graphs, &back_graphs})
        for (Graph& g : *graphs)
            g = Graph();
}

template <class T>
void SimulationState<T>::setup_fields() {
    // Device memory first: if it does not fit, the allocator says how much
    // was asked for and how much is free, before any host staging is made.
    for (auto& f : fields)
        f = DeviceArray<T>(layout.allocation());
    vel = DeviceArray<T>(layout.allocation());
    std::vector<T> host(layout.allocation(), T(0));
    for (auto& f : fields)
        copy_to_device(f, host.data()); // zero halos are the Dirichlet boundary
    // dt^2 c^2 everywhere, the halo included (its cells are never updated).
    const FieldView<T> v = view_of(host.data(), layout);
    const double dt = physics.dt;
    for (int k = 0; k < layout.pz(); ++k) {
        const int gk = std::min(std::max(k - layout.radius + d.offset[2], 0), d.global[2] - 1);
        const T value = T(std::pow(velocity_at(config.model, gk, d.global[2]) * dt, 2));
        for (int j = 0; j < layout.py(); ++j)
            for (int i = 0; i < layout.px(); ++i)
                v(i, j, k) = value;
    }
    copy_to_device(vel, host.data());
}

template <class T>
SimulationState<T>::SimulationState(const Config& config_, const Physics& physics_,
                                    const std::array<int, 3>& global,
                                    const std::array<int, 3>& procs, MPI_Comm comm, CommMode mode)
    : config(config_), physics(physics_), d(decompose(comm, global, procs)) {
    SimulationState& s = *this;
    const int R = config.radius;
    s.layout = Layout(s.d.local[0], s.d.local[1], s.d.local[2], R);
    s.setup_boxes();
    s.setup_fields();
    s.exchange = std::make_unique<HaloExchange<T>>(
        s.d, s.layout, mode, std::vector<T*>{s.fields[0].data(), s.fields[1].data()}, s.halo);
    s.exchange->set_drop_one_face(config.drop_face);

    Sponge sponge;
    sponge.width = config.sponge;
    sponge.strength = physics.sponge_strength;
    sponge.radius = R;
    for (int a = 0; a < 3; ++a)
        sponge.offset[a] = s.d.offset[a], sponge.extent[a] = global[a];
    s.owns_source = true;
    for (int a = 0; a < 3; ++a) {
        const int local = physics.source[a] - s.d.offset[a];
        s.owns_source = s.owns_source && local >= 0 && local < s.d.local[a];
        s.source_local[a] = local + R;
    }
    s.source = {physics.dt, physics.f0, physics.t0,
                physics.dt * physics.dt / std::pow(config.spacing, 3)};
    const long long zero = 0;
    copy_to_device(s.source_step, &zero);
    // The one run-time to compile-time radius switch of the time loop.
    const double h = config.spacing;
    s.update = dispatch_radius(R, [&](auto radius) -> UpdateFn {
        constexpr int RR = decltype(radius)::value;
        const auto c = make_coefficients<RR, T>(h, h, h);
        auto shape = [&](LaunchBox& u) {
            u.tuning = wave_tuning<RR, T>(config.tuning, s.layout, u.box);
        };
        shape(s.whole);
        shape(s.inner);
        std::for_each(s.slabs.begin(), s.slabs.end(), shape);
        s.update_tables = [c, sponge](FieldView<const T> p, FieldView<T> prev, FieldView<const T> v,
                                      const std::vector<WaveTable>& tables, Stream& stream) {
            launch_wave_boxes<RR, T>(p, prev, v, tables, c, sponge, stream);
        };
        return [c, sponge](FieldView<const T> p, FieldView<T> prev, FieldView<const T> v,
                           const LaunchBox& u, Stream& stream) {
            launch_wave_step<RR, T>(p, prev, v, u.box, c, sponge, stream, u.tuning);
        };
    });
    // Auto: graphs where they measured faster (docs/performance-history.md,
    // "Merged launches and graphs"): steps with nothing to exchange or with NCCL, one graph each;
    // not MPI exchanges, whose two graphs ran 0.5-10% slower than plain
    // launches on 2 x H200 from 256^3 per GPU.
    s.graphs =
        config.graphs == GraphChoice::On ||
        (config.graphs == GraphChoice::Auto && graphs_available() && !s.exchange->host_between());
    s.shapes_changed();
    s.first_start.record(s.compute);
}

template <class T>
void SimulationState<T>::enqueue_front(StepTimers& t, bool sampled, FieldView<T> p,
                                       FieldView<T> next) {
    if (exchange->moves_data()) {
        // After the previous step, whose last work is on the compute stream.
        halo.wait_for(compute);
        if (config.poison_halo) exchange->poison_halo(p);
        exchange->pack(p, sampled);
    }
    if (!config.overlap) return;
    // Enqueued before post(), where the host waits for the pack: the
    // interior reads only owned cells of p and writes next, which the
    // exchange never touches, so the device need not idle while the host
    // posts.
    if (sampled) t.interior_start.record(compute);
    update(p, next, vel_view(), inner, compute);
    if (sampled) t.interior_stop.record(compute);
}

template <class T>
void SimulationState<T>::enqueue_back(StepTimers& t, bool sampled, FieldView<T> p,
                                      FieldView<T> next) {
    exchange->unpack(p, sampled);
    // The boundary follows the unpack on the high-priority halo stream, so
    // it starts as soon as the halos are in, alongside the interior's last
    // blocks rather than behind them. With nothing exchanged, on compute.
    Stream& stream = exchange->moves_data() ? halo : compute;
    auto mark = [&](Event& e) {
        if (sampled) e.record(stream);
    };
    if (config.overlap) {
        mark(t.boundary_start);
        update_tables(p, next, vel_view(), slab_tables, stream);
        mark(t.boundary_stop);
    } else {
        mark(t.interior_start);
        update(p, next, vel_view(), whole, stream);
        mark(t.interior_stop);
        mark(t.boundary_start);
        mark(t.boundary_stop);
    }
}

template <class T>
void SimulationState<T>::enqueue_source(FieldView<T> next) {
    if (owns_source)
        launch_add_source(next, source_local[0], source_local[1], source_local[2], source,
                          source_step.data(), compute);
}

template <class T>
template <class F>
void SimulationState<T>::replay(std::array<Graph, kGraphs>& graphs, int slot, bool sampled,
                                Stream& stream, F&& enqueue) {
    // Both twins at once, so that the timed steps never pay for a capture
    // (the warm-up steps meet every slot and time level).
    const int plain = graph_index(slot, false);
    if (!graphs[plain].ready())
        for (const bool with_events : {false, true})
            graphs[graph_index(slot, with_events)] =
                Graph::capture(stream, [&] { enqueue(with_events); });
    graphs[graph_index(slot, sampled)].launch(stream);
}

template <class T>
void SimulationState<T>::step(bool timed) {
    // Step n - kSlots + 1 measures itself from the done of step n - kSlots,
    // whose slot this step is about to reuse: read it now.
    while (collected <= steps_done - kSlots + 1)
        collect(collected);
    const int slot = steps_done % kSlots;
    StepTimers& t = timers[slot];
    t.timed = timed;
    t.sampled = timed && timed_steps % kPhaseSampling == 0;
    timed_steps += timed;
    if (steps_done == 0) first_start.record(compute); // not the time spent on setup
    const FieldView<T> p = view(current), next = view(1 - current);
    exchange->begin(p, slot);
    if (!graphs) {
        enqueue_front(t, t.sampled, p, next);
        exchange->post();
        exchange->wait();
        enqueue_back(t, t.sampled, p, next);
        if (exchange->moves_data()) compute.wait_for(halo);
        enqueue_source(next);
    } else if (exchange->host_between()) {
        // MPI: one graph up to the pack and the interior, the host's part of
        // the exchange, then one graph for the unpack and the boundary.
        replay(front_graphs, slot, t.sampled, compute, [&](bool sampled) {
            enqueue_front(t, sampled, p, next);
            compute.wait_for(halo); // a capture ends with its forks joined
        });
        exchange->post();
        exchange->wait();
        replay(back_graphs, slot, t.sampled, halo,
               [&](bool sampled) { enqueue_back(t, sampled, p, next); });
        compute.wait_for(halo);
        enqueue_source(next); // a launch of its own, after both streams' graphs
    } else {
        // NCCL's exchange is stream-ordered, so the whole step, source
        // included, is one graph; so is a step with nothing to exchange.
        replay(front_graphs, slot, t.sampled, compute, [&](bool sampled) {
            enqueue_front(t, sampled, p, next);
            exchange->post();
            enqueue_back(t, sampled, p, next);
            if (exchange->moves_data()) compute.wait_for(halo);
            enqueue_source(next);
        });
    }
    t.done.record(compute);
    current = 1 - current;
    ++steps_done;
}

template <class T>
void SimulationState<T>::collect(int n) {
    StepTimers& t = timers[n % kSlots];
    const Event& before = n ? timers[(n - 1) % kSlots].done : first_start;
    t.done.synchronize();
    collected = n + 1;
    if (!t.timed) return;
    // Done to done on the compute stream: the step as the device saw it,
    // host gaps between steps included.
    totals.step += elapsed_ms(before, t.done);
    ++totals.steps;
    if (!t.sampled) return;
    const HaloPhaseTimes h = exchange->times(n % kSlots);
    totals.pack += h.pack, totals.post += h.post, totals.wait += h.wait, totals.unpack += h.unpack;
    totals.interior += elapsed_ms(t.interior_start, t.interior_stop);
    totals.boundary += elapsed_ms(t.boundary_start, t.boundary_stop);
    ++totals.sampled;
}

template <class T>
void SimulationState<T>::settle() {
    while (collected < steps_done)
        collect(collected);
    compute.synchronize(); // and what followed the last step (receiver samples)
}

// The members defined here, for both precisions (the queries' own are in
// simulation_queries.cpp).
template struct SimulationState<float>;
template struct SimulationState<double>;

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
