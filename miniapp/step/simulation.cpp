// SimulationOf<T>'s time step: the phase lists of step_phases.hpp enqueued
// by the plain runner or replayed by the graph runner, and the step timers.
#include "step/simulation.hpp"
#include "step/simulation_impl.hpp"

#include "field_ops.hpp"
#include "stencil.hpp"

#include <algorithm>
#include <cmath>

namespace stencil {

template <class T>
void SimulationOf<T>::shapes_changed() {
    boxes_.slab_tables = wave_tables(layout_, boxes_.slabs, kLanes<T>);
    std::size_t most_runs = 0;
    for (const auto& runs : runs_)
        most_runs = std::max(most_runs, runs.size());
    graphs_.clear();
    graphs_.resize(most_runs);
    for (auto& set : graphs_)
        set.resize(std::size_t(2 * graph_period()));
    chunk_graphs_.clear();
    steps_per_graph_ = chunk_steps();
}

template <class T>
void SimulationOf<T>::setup_schedules() {
    ScheduleInputs in;
    in.overlap = boxes_.overlapped;
    in.messages = exchange().moves_data();
    in.host_between = exchange().host_between();
    // From k = 3 on, the pack reads p(t_n-1) (in `next`) deeper than R into
    // the interior, where the interior update writes.
    in.pack_reaches_interior = depth_ >= 3;
    in.links = routes_->linked_faces() > 0;
    for (int ring_step = 0; ring_step < depth_; ++ring_step) {
        schedules_.push_back(step_phases(in, ring_step));
        hooks_->schedule_made(schedules_.back());
        runs_.push_back(graph_runs(schedules_.back()));
    }
}

template <class T>
void SimulationOf<T>::enqueue(const Phase& phase, const StepState& s, bool sampled) {
    Stream& stream = stream_of(phase.lane);
    const Timeline::Mark mark = timeline_mark(phase, s, sampled); // --timeline
    auto timed_update = [&](Event& start, Event& stop, auto&& launch) {
        if (sampled) start.record(stream);
        launch();
        if (sampled) stop.record(stream);
    };
    StepTimers& t = s.timers;
    switch (phase.kind) {
    case PhaseKind::Begin:
        return exchange().begin(s.p, s.next, s.slot);
    case PhaseKind::Fork:
        return halo_.wait_for(compute_);
    case PhaseKind::Pack:
        return exchange().pack(s.p, s.next, sampled);
    case PhaseKind::Interior: {
        const LaunchBox& box =
            s.ring_step ? boxes_.ring[std::size_t(s.ring_step - 1)] : boxes_.inner;
        const SourceInLaunch<T> source =
            s.ring_step ? source_in_update(s, box) : SourceInLaunch<T>{};
        return timed_update(t.interior_start, t.interior_stop, [&] {
            update_(s.p, s.next, fields_->velocity(), box, device_sinks_of(s), source, stream);
        });
    }
    case PhaseKind::Post:
        return exchange().post();
    case PhaseKind::Wait:
        return exchange().wait();
    case PhaseKind::Unpack:
        return exchange().unpack(s.p, s.next, sampled);
    case PhaseKind::Boundary:
        return timed_update(t.boundary_start, t.boundary_stop, [&] {
            update_tables_(s.p, s.next, fields_->velocity(), boxes_.slab_tables, sinks_of(s),
                           stream);
        });
    case PhaseKind::Whole: // timed as the interior: it is the step's one update
        return timed_update(t.interior_start, t.interior_stop, [&] {
            update_(s.p, s.next, fields_->velocity(), boxes_.whole, device_sinks_of(s),
                    source_in_update(s, boxes_.whole), stream);
        });
    case PhaseKind::Await: // the linked route's: the neighbours' stores are in
        return routes_->links()->await(stream);
    case PhaseKind::Signal: // and this rank's are in theirs
        return routes_->links()->signal(stream);
    case PhaseKind::Join:
        return compute_.wait_for(halo_);
    case PhaseKind::Hook:
        return hooks_->at_phase(phase.hook_point, s.p, s.next, stream);
    case PhaseKind::Source: // unless the update added it (source.hpp, SourceInUpdate)
        if (source_->any() && !update_adds_source(s))
            source_->launch(s.ring_step, fields_->array_of(s.next), stream);
        return;
    }
}

template <class T>
void SimulationOf<T>::run_plain(const StepState& s) {
    for (const Phase& phase : schedules_[std::size_t(s.ring_step)])
        enqueue(phase, s, s.timers.sampled);
}

template <class T>
void SimulationOf<T>::run_graphs(const StepState& s) {
    const std::vector<Phase>& phases = schedules_[std::size_t(s.ring_step)];
    const std::vector<PhaseRun>& runs = runs_[std::size_t(s.ring_step)];
    for (std::size_t r = 0; r < runs.size(); ++r) {
        const PhaseRun& run = runs[r];
        auto enqueue_run = [&](bool sampled) {
            for (std::size_t i = run.first; i < run.last; ++i)
                enqueue(phases[i], s, sampled);
            if (run.joins_halo) compute_.wait_for(halo_); // a capture ends with its forks joined
        };
        if (run.captured)
            replay(graphs_[r], s.timers.sampled, stream_of(run.origin), enqueue_run);
        else
            enqueue_run(s.timers.sampled);
    }
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
    // Both twins at once, so that a timed step never pays for its twin's
    // capture. The warm-up captures the slots its steps meet; the timed
    // steps capture the rest (the default --warmup 32 meets them all at
    // k = 1, 2, 4 and 8).
    if (!graphs[std::size_t(graph_index(false))].ready())
        for (const bool with_events : {false, true})
            graphs[std::size_t(graph_index(with_events))] =
                Graph::capture(stream, [&] { enqueue(with_events); });
    graphs[std::size_t(graph_index(sampled))].launch(stream);
}

template <class T>
StepTimers& SimulationOf<T>::next_timers(int n, bool timed) {
    StepTimers& t = clock_.begin(n, timed, compute_, [&](int m) { collect(m); });
    t.exchanged = n % depth_ == 0 && exchange().moves_data();
    t.has_boundary = n % depth_ == 0 && boxes_.overlapped;
    return t;
}

template <class T>
void SimulationOf<T>::step(bool timed) {
    StepTimers& t = next_timers(steps_done_, timed);
    t.recorded = true;
    if (timeline_ && t.sampled) timeline_->anchor(d_.cart.get(), compute_, halo_); // once
    const StepState state = state_of(steps_done_, t);
    prime_if_due();
    if (use_graphs_)
        run_graphs(state);
    else
        run_plain(state);
    t.done.record(compute_);
    fields_->advance(1);
    ++steps_done_;
}

// On the stream, before the graphs, which never hold the priming; before a
// chunk too, so that the warm-up's step 0 may start one.
template <class T>
void SimulationOf<T>::prime_if_due() {
    if (primed_ || steps_done_ % depth_ != 0) return;
    routes_->prime(fields_->view(fields_->current()), compute_);
    primed_ = true;
}

template <class T>
void SimulationOf<T>::collect(int n) const {
    const StepTimers* t = clock_.read(n);
    if (!t) return; // untimed, or its phases not sampled
    if (t->exchanged) {
        const HaloPhaseTimes h = exchange().times(n % kSlots);
        PhaseTotals& totals = clock_.totals();
        totals.pack += h.pack, totals.post += h.post, totals.wait += h.wait,
            totals.unpack += h.unpack;
    }
    if (timeline_)
        timeline_->collect(first_step_ + n + 1, n % depth_, n % kSlots,
                           schedules_[std::size_t(n % depth_)]);
}

template <class T>
void SimulationOf<T>::settle_timers() const {
    while (clock_.collected() < steps_done_)
        collect(clock_.collected());
    compute_.synchronize(); // and what followed the last step (receiver samples)
}

template <class T>
void SimulationOf<T>::start_window() {
    // The fused pack's priming outside the window: with a link path it
    // holds two barriers.
    prime_if_due();
    settle_timers(); // every stream of this rank idle, every step so far collected
    MPI_CHECK(MPI_Barrier(d_.cart.get()));
    clock_.open_window();
}

template <class T>
void SimulationOf<T>::rewind() {
    settle_timers(); // and so every exchange is complete: nothing reads the fields now
    fields_->zero();
    source_->set_steps(0);
    // Step 0 again with p in array 0, as the graphs were captured.
    fields_->restart();
    steps_done_ = first_step_ = 0;
    primed_ = false;
    clock_.reset();
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
        fields_->write(level, host.data()); // p in array 0, as rewind() left it
    }
    source_->set_steps(step); // the source's clock is the physics time
    first_step_ = step;
}

template <class T>
std::vector<LaunchBox> SimulationOf<T>::launch_boxes() const {
    std::vector<LaunchBox> boxes;
    for (const LaunchBox* u : UpdateBoxes::updated(boxes_))
        boxes.push_back(*u);
    return boxes;
}

template <class T>
void SimulationOf<T>::set_launch_shape(const std::array<int, 3>& extents,
                                       const LaunchShape& shape) {
    for (LaunchBox* u : UpdateBoxes::updated(boxes_))
        if (u->box.nx() == extents[0] && u->box.ny() == extents[1] && u->box.nz() == extents[2])
            u->shape = shape;
    shapes_changed();
}

template <class T>
std::size_t SimulationOf<T>::largest_face_bytes() const {
    return sizeof(T) * exchange().largest_message_cells();
}

template <class T>
void SimulationOf<T>::updated_cells(double& updated, double& owned) const {
    updated = double(boxes_.whole.box.cells());
    for (const LaunchBox& r : boxes_.ring)
        updated += double(r.box.cells());
    owned = double(depth_) * double(layout_.interior().cells());
}

// The class for both precisions; the setup's and the queries' members are
// instantiated in simulation_setup.cpp and simulation_queries.cpp.
template class SimulationOf<float>;
template class SimulationOf<double>;

std::unique_ptr<Simulation> make_simulation(const RunContext& run, MPI_Comm comm,
                                            const StepHookMaker* hooks) {
    // The one run-time to compile-time precision switch of the mini-app.
    return dispatch_precision(run.options.precision, [&](auto zero) -> std::unique_ptr<Simulation> {
        using T = decltype(zero);
        return std::make_unique<SimulationOf<T>>(run, comm, hooks);
    });
}

} // namespace stencil
