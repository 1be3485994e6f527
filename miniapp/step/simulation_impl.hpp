// Private to miniapp/step/simulation*.cpp: SimulationOf<T>, the Simulation of one
// run in precision T. Its setup is in simulation_setup.cpp, the time step in
// simulation.cpp, the collective queries in simulation_queries.cpp.
#pragma once

#include "face_routes.hpp"
#include "graph.hpp"
#include "schedule/step_phases.hpp"
#include "source.hpp"
#include "stencil.hpp"
#include "step/simulation.hpp"
#include "step/step_clock.hpp"
#include "step/step_hooks.hpp"
#include "step/step_source.hpp"
#include "step/timeline.hpp"
#include "step/update_boxes.hpp"
#include "step/wave_fields.hpp"

#include <algorithm>
#include <array>
#include <functional>
#include <memory>
#include <type_traits>
#include <vector>

namespace stencil {

template <class T>
class SimulationOf final : public Simulation {
public:
    SimulationOf(const RunContext& run, MPI_Comm comm, const StepHookMaker* hooks);

    // Steps one at a time, or up to steps_per_graph_ at once where a chunk
    // of them starts here (step_chunks.cpp).
    void run(int steps, bool timed) override {
        while (steps > 0) {
            prime_if_due();
            const int chunk = chunk_starting_here(steps);
            if (chunk > 1)
                step_chunk(chunk, timed);
            else
                step(timed);
            steps -= chunk;
        }
    }
    void rewind() override;
    void restore(int step, const std::vector<double>& p,
                 const std::vector<double>& p_prev) override;
    const PhaseTotals& totals() const override {
        settle_timers();
        return clock_.totals();
    }
    const Decomposition& decomposition() const override { return d_; }
    Precision precision() const override { return precision_of<T>(); }
    std::size_t halo_bytes_per_step() const override { return exchange().bytes_per_exchange(); }
    int halo_depth() const override { return depth_; }
    int slab_x() const override { // as they run: split_shell caps them at the box
        return std::max(boxes_.inner.box.x0 - boxes_.whole.box.x0,
                        boxes_.whole.box.x1 - boxes_.inner.box.x1);
    }
    void updated_cells(double& updated, double& owned) const override;
    std::size_t largest_face_bytes() const override;
    int halo_faces(int& self) const override {
        self = routes_->self_faces();
        return routes_->faces();
    }
    FaceRouteSummary face_routes() const override {
        return {routes_->describe(), routes_->linked_faces()};
    }
    bool fused_pack() const override { return routes_->stores_faces(); }
    bool fused_pack_applies() const override { return exchange().fuses_pack(); }
    int steps_done() const override { return first_step_ + steps_done_; }
    void start_window() override;
    const LaunchShape& interior_shape() const override {
        return (boxes_.overlapped ? boxes_.inner : boxes_.whole).shape;
    }
    std::vector<LaunchBox> launch_boxes() const override;
    void set_launch_shape(const std::array<int, 3>& extents, const LaunchShape& shape) override;
    bool graphs() const override { return use_graphs_; }
    int steps_per_graph() const override { return steps_per_graph_; }
    void record_timeline() override {
        timeline_ = std::make_unique<Timeline>(kSlots, schedules_);
        shapes_changed(); // graphs captured before now lack the timeline's events
    }
    const Timeline* timeline() const override {
        settle_timers();
        return timeline_.get();
    }

    // The collective queries (simulation_queries.cpp).
    std::uint64_t checksum() const override;
    std::vector<double> gather() const override;
    double energy() const override;
    double value_at(const std::array<int, 3>& cell) const override;
    bool all_finite() const override;
    std::vector<double> interior_copy(bool previous = false) const override;
    void interior_in_precision(std::vector<float>& out, bool previous) const override {
        same_precision(out, previous);
    }
    void interior_in_precision(std::vector<double>& out, bool previous) const override {
        same_precision(out, previous);
    }
    bool local_offset(const std::array<int, 3>& cell, std::size_t& offset) const override;
    void sample(const std::size_t* offsets, int count, double* out) override;
    void settle() override { settle_timers(); }
    int first_nonfinite_rank() override;
    void count_nonfinite_later() override;
    void set_value_at(const std::array<int, 3>& cell, double value) override;

private:
    // The wave update with the radius already fixed (dispatched once): over
    // one box, and over boxes merged into tables; each stores the faces it
    // computes into the sinks given.
    using UpdateFn =
        std::function<void(FieldView<const T>, FieldView<T>, FieldView<const T>, const LaunchBox&,
                           const FaceSinks<T>*, SourceInLaunch<T>, Stream&)>;
    using UpdateTablesFn =
        std::function<void(FieldView<const T>, FieldView<T>, FieldView<const T>,
                           const std::vector<WaveTable>&, const FaceSinks<T>&, Stream&)>;
    static constexpr int kSlots = kHaloTimingSlots;

    // The boxes, once the routes say which sides' halos arrive during the step.
    void setup_boxes();
    void setup_routes();
    // The source of each step of a k-step cycle: its images in the step's
    // box (the owned one, and its copies in the ring this rank updates for
    // its neighbours), and their copies in the routes' sinks.
    void setup_source();
    void setup_fields();
    void setup_update(const std::array<int, 3>& global);
    // After the boxes' shapes change: merge the slabs anew, drop the graphs.
    void shapes_changed();
    // The step's phase lists (step_phases.hpp), one per step of the
    // exchange cycle, and how the graph runner splits each.
    void setup_schedules();
    void step(bool timed);
    // The fused pack's priming, where the next step starts a cycle after
    // the fields were set from outside a step.
    void prime_if_due();
    // Several steps at once (step_chunks.cpp): where each step's device work
    // is one run of the graph runner, up to steps_per_graph_ consecutive
    // steps captured as one graph (on the HOST back-end, enqueued one after
    // another in the same order), each with its timers; the last records
    // the chunk's one `done` event.
    // chunk_steps(): that count where this schedule allows chunks, else 1;
    // chunk_starting_here(left): the steps the next run(left) call makes
    // at once from here (1 where no aligned chunk fits); step_chunk(m, ...)
    // makes them.
    int chunk_steps() const;
    int chunk_starting_here(int left) const;
    void step_chunk(int m, bool timed);
    // The chunk graphs' period in steps: the per-step graphs' period and
    // the phase sampling's cycle (StepClock::sampled) both fit in it.
    int chunk_period() const;
    // The timers of step n, about to be enqueued, after reading the oldest
    // slot's.
    StepTimers& next_timers(int n, bool timed);
    // What one step's phases work on.
    struct StepState {
        StepTimers& timers;
        FieldView<T> p, next; // p(t_n) and p(t_n-1), overwritten by p(t_n+1)
        int ring_step;        // steps since the last exchange
        int slot;             // the timers' slot
    };
    // Step n's state with `timers`: p(t_n) in the fields' array n % 2, as
    // the time levels alternate from step 0 (WaveFields::current() is
    // steps_done_ % 2).
    StepState state_of(int n, StepTimers& timers) {
        return {timers, fields_->view(n % 2), fields_->view(1 - n % 2), n % depth_, n % kSlots};
    }
    // The two runners: each phase enqueued in order; or each captured run
    // of device phases replayed as a graph, the rest enqueued as they come.
    void run_plain(const StepState& s);
    void run_graphs(const StepState& s);
    // Enqueues (or, on the host, does) one phase; `sampled`: with its events.
    void enqueue(const Phase& phase, const StepState& s, bool sampled);
    Stream& stream_of(Lane lane) { return lane == Lane::Halo ? halo_ : compute_; }
    HaloExchange<T>& exchange() { return routes_->messages(); }
    const HaloExchange<T>& exchange() const { return routes_->messages(); }
    // Where the update of a step `ring_step` after the exchange stores
    // faces: the one-box kernel's table in device memory, the slabs' own.
    const FaceSinks<T>* device_sinks_of(const StepState& s) const {
        return s.ring_step ? nullptr : routes_->device_sinks_for(s.next);
    }
    const FaceSinks<T>& sinks_of(const StepState& s) const {
        static const FaceSinks<T> none{};
        return s.ring_step ? none : routes_->sinks_for(s.next);
    }
    // --timeline: the phase's mark (timeline.hpp); it records in sampled
    // steps only (and in the sampled twin of a captured graph).
    // `phase` is an element of the step's schedule, which gives its index.
    Timeline::Mark timeline_mark(const Phase& phase, const StepState& s, bool sampled) {
        const std::vector<Phase>& phases = schedules_[std::size_t(s.ring_step)];
        const auto index = std::size_t(&phase - phases.data());
        if (sampled && timeline_ && index >= phases.size())
            fatal("--timeline: a phase outside its step's schedule");
        return {sampled ? timeline_.get() : nullptr, phase.lane, index, s.slot,
                stream_of(phase.lane)};
    }
    // Launches graphs[graph_index(sampled)] on `stream`, capturing it (and
    // its sampled twin) from enqueue(sampled) the first time.
    template <class F>
    void replay(std::vector<Graph>& graphs, bool sampled, Stream& stream, F&& enqueue);
    // A step's graphs differ by timer slot, time level (the events and
    // pointers differ) and place in the exchange cycle: the step number
    // modulo lcm(kSlots, k), which is even, so it fixes the time level.
    int graph_period() const;
    int graph_index(bool sampled) const { return steps_done_ % graph_period() * 2 + sampled; }
    // Waits for step n and adds its phases to the clock's totals (steps in order).
    void collect(int n) const;
    // Waits for every step enqueued, and the compute stream's work after
    // them: before the host reads a field.
    void settle_timers() const;
    std::vector<T> local_interior(bool previous = false) const; // settles first
    void local_interior_into(std::vector<T>& out, bool previous) const;
    template <class U>
    void same_precision(std::vector<U>& out, bool previous) const {
        if constexpr (std::is_same_v<U, T>)
            local_interior_into(out, previous);
        else
            fatal("interior_in_precision: asked for the other precision");
    }
    // Whether this rank owns global `cell`, and its index in the padded layout.
    bool owns(const std::array<int, 3>& cell, std::array<int, 3>& local) const;

    Options options_;
    RunPlan plan_;
    Physics physics_;
    Decomposition d_;
    int depth_ = 1; // the halo depth k: one exchange every k steps
    // The steps' timers, windows and totals; reading them back changes no
    // result, so the const queries may (settle_timers).
    mutable StepClock clock_{1};
    Layout layout_; // halo k * R wide
    // p and p_prev, and dt^2 c^2 (wave_fields.hpp): before the routes,
    // which may map them, so that they go after.
    std::unique_ptr<WaveFields<T>> fields_;
    // Before everything that enqueues on them, so they go last. The const
    // queries wait for the compute stream (below).
    mutable Stream compute_{StreamPriority::Normal};
    Stream halo_{StreamPriority::High};
    // Each face's route (self, linked, message), the exchange of the message
    // faces, the link path and the sinks the update stores the faces into.
    std::unique_ptr<FaceRoutes<T>> routes_;
    // What a hook adds to the step (step_hooks.hpp; the defaults add
    // nothing). After the routes, which it may hold, so it goes first.
    std::unique_ptr<StepHooks<T>> hooks_;
    // The boxes of the wave update, with their launch shapes (update_boxes.hpp).
    UpdateBoxes boxes_;
    // The source's cells and step count (step_source.hpp).
    std::unique_ptr<StepSource<T>> source_;
    // The source the update of step `s` adds itself, or null where a
    // launch of its own adds it (Source): where the step's one update is
    // `box` (the whole box, or a ring step's), with either body and one
    // plane of loads in flight (two do not add it: fused_launch.hpp).
    SourceInLaunch<T> source_in_update(const StepState& s, const LaunchBox& box) const {
        if (!source_->any() || box.shape.planes_ahead() == 2) return {};
        return source_->in_update(s.ring_step, fields_->array_of(s.next));
    }
    // Whether step `s`'s update added the source (source_in_update).
    bool update_adds_source(const StepState& s) const {
        if (s.ring_step > 0)
            return bool(source_in_update(s, boxes_.ring[std::size_t(s.ring_step - 1)]));
        return !boxes_.overlapped && source_in_update(s, boxes_.whole);
    }
    UpdateFn update_;
    UpdateTablesFn update_tables_;
    // The step's phases by ring step (0: the exchange step), and their
    // runs for the graph runner.
    std::vector<std::vector<Phase>> schedules_;
    std::vector<std::vector<PhaseRun>> runs_;
    // --graphs: the captured runs' graphs, by the run's place in its list,
    // then graph_index().
    bool use_graphs_ = false;
    std::vector<std::vector<Graph>> graphs_;
    // --steps-per-graph: the steps a chunk holds (1: none), and the chunks'
    // graphs by their first step modulo chunk_period(), in steps of
    // steps_per_graph_, then timed (step_chunks.cpp).
    int steps_per_graph_ = 1;
    std::vector<Graph> chunk_graphs_;
    int steps_done_ = 0; // since the start, the warm-up's rewind or a restore
    int first_step_ = 0; // the physics step a restore continued from
    // The fused pack: whether the send buffers and the rank's own halos hold
    // p's faces, as the last step's boundary update leaves them. False
    // where the fields were set from outside a step; the next exchange
    // step primes them first.
    bool primed_ = false;

    // The NaN check's count: a device word, the pinned word it is copied to,
    // the event after the copy, and whether a count is in flight.
    struct NonfiniteCount {
        DeviceArray<unsigned long long> counter{1};
        PinnedResult<unsigned long long> count{1};
        Event copied;
        bool pending = false;
    };
    NonfiniteCount nan_count_;
    // --timeline (record_timeline()): the sampled steps' phases as spans.
    std::unique_ptr<Timeline> timeline_;
};

} // namespace stencil
