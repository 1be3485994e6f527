// Private to miniapp/simulation*.cpp: the state of one run in precision T,
// and SimulationOf<T>, which implements the Simulation interface on it.
#pragma once

#include "graph.hpp"
#include "simulation.hpp"
#include "source.hpp"
#include "stencil.hpp"

#include <algorithm>
#include <array>
#include <functional>
#include <memory>
#include <vector>

namespace stencil {

// The events of one step. They are read up to kHaloTimingSlots - 1 steps
// later, so the time loop never waits for the device only to read its
// timers.
struct StepTimers {
    Event interior_start, interior_stop, boundary_start, boundary_stop;
    Event done;                          // the step's last work on the compute stream
    bool timed = false, sampled = false; // sampled: the phase events were recorded
};

template <class T>
struct SimulationState {
    // The wave update with the radius already fixed (dispatched once): over
    // one box, and over boxes merged into tables.
    using UpdateFn = std::function<void(FieldView<const T>, FieldView<T>, FieldView<const T>,
                                        const LaunchBox&, Stream&)>;
    using UpdateTablesFn = std::function<void(FieldView<const T>, FieldView<T>, FieldView<const T>,
                                              const std::vector<WaveTable>&, Stream&)>;

    Config config;
    Physics physics;
    Decomposition d;
    Layout layout;
    DeviceArray<T> fields[2]; // p and p_prev; the update writes p_next over p_prev
    DeviceArray<T> vel;       // dt^2 c^2
    DeviceArray<unsigned long long> nan_counter{1}; // scratch of the NaN/Inf check
    int current = 0;                                // index of p in fields
    Stream compute{StreamPriority::Normal};
    Stream halo{StreamPriority::High};
    std::unique_ptr<HaloExchange<T>> exchange;
    static constexpr int kSlots = kHaloTimingSlots;
    std::array<StepTimers, kSlots> timers; // step n in timers[n % kSlots]
    Event first_start;                     // the "done" before step 0
    int collected = 0;                     // steps whose timers were read
    int timed_steps = 0;                   // enqueued, for the phase sampling
    // The boxes of the wave update, each with its resolved launch shape
    // (wave_tuning asks the occupancy API once here, not every step).
    LaunchBox whole, inner;
    std::vector<LaunchBox> slabs;       // the shell whole - inner, as non-overlapping boxes
    std::vector<WaveTable> slab_tables; // the slabs in as few launches as their shapes allow
    bool owns_source = false;
    int source_local[3] = {0, 0, 0};
    RickerSource source;
    DeviceArray<long long> source_step{1}; // the steps the source kernel has added
    UpdateFn update;
    UpdateTablesFn update_tables;
    // Graphs of the step's device work (--graphs): before the host's part of
    // an MPI exchange ("front"; with NCCL or nothing to exchange, the whole
    // step), and after it ("back"). By timer slot, time level (the pointers
    // differ) and whether the phase events are recorded: graph_index().
    bool graphs = false;
    static constexpr int kGraphs = kSlots * 2 * 2;
    std::array<Graph, kGraphs> front_graphs, back_graphs;
    PhaseTotals totals;
    int steps_done = 0;

    FieldView<T> view(int which) { return view_of(fields[which].data(), layout); }
    FieldView<const T> vel_view() { return view_of(static_cast<const T*>(vel.data()), layout); }

    SimulationState(const Config& config, const Physics& physics, const std::array<int, 3>& global,
                    const std::array<int, 3>& procs, MPI_Comm comm, CommMode mode);
    void setup_boxes();
    void setup_fields();
    // After the boxes' shapes change: merge the slabs anew, drop the graphs.
    void shapes_changed();
    void step(bool timed);
    // The device work of a step before the host's part of an MPI exchange
    // (pack, interior), and after it (unpack, boundary or whole update).
    void enqueue_front(StepTimers& t, bool sampled, FieldView<T> p, FieldView<T> next);
    void enqueue_back(StepTimers& t, bool sampled, FieldView<T> p, FieldView<T> next);
    // The source, after the update of its cell (on the compute stream).
    void enqueue_source(FieldView<T> next);
    // Launches graphs[graph_index(slot, sampled)] on `stream`, capturing it
    // (and its sampled twin) from enqueue(sampled) the first time.
    template <class F>
    void replay(std::array<Graph, kGraphs>& graphs, int slot, bool sampled, Stream& stream,
                F&& enqueue);
    int graph_index(int slot, bool sampled) const { return (slot * 2 + current) * 2 + sampled; }
    // Waits for step n and adds its phases to totals (steps in order).
    void collect(int n);
    // Waits for every step enqueued, and the compute stream's work after
    // them: before the host reads a field.
    void settle();
    std::vector<T> local_interior(); // settles first
    // The boxes the step updates with this schedule: whole, or inner and the slabs.
    std::vector<LaunchBox*> updated_boxes() {
        std::vector<LaunchBox*> boxes;
        if (!config.overlap) return {&whole};
        if (!inner.box.empty()) boxes.push_back(&inner);
        for (LaunchBox& slab : slabs)
            boxes.push_back(&slab);
        return boxes;
    }
    // Whether this rank owns global `cell`, and its index in the padded layout.
    bool owns(const std::array<int, 3>& cell, std::array<int, 3>& local) const;
};

// The collective queries (simulation_queries.cpp), on the state of one rank.
template <class T>
std::uint64_t checksum_of(SimulationState<T>& s);
template <class T>
std::vector<double> gather_of(SimulationState<T>& s);
template <class T>
double value_at_of(SimulationState<T>& s, const std::array<int, 3>& cell);
template <class T>
int first_nonfinite_rank_of(SimulationState<T>& s);
template <class T>
void set_value_at_of(SimulationState<T>& s, const std::array<int, 3>& cell, double value);
template <class T>
double energy_of(SimulationState<T>& s);
template <class T>
bool all_finite_of(SimulationState<T>& s);
template <class T>
void sample_of(SimulationState<T>& s, const std::size_t* offsets, int count, double* out);

template <class T>
class SimulationOf final : public Simulation {
public:
    SimulationOf(const Config& config, const Physics& physics, const std::array<int, 3>& global,
                 const std::array<int, 3>& procs, MPI_Comm comm, CommMode mode)
        : s_(std::make_unique<SimulationState<T>>(config, physics, global, procs, comm, mode)) {}

    void run(int steps, bool timed) override {
        for (int n = 0; n < steps; ++n)
            s_->step(timed);
    }
    const PhaseTotals& totals() const override {
        s_->settle();
        return s_->totals;
    }
    const Decomposition& decomposition() const override { return s_->d; }
    Precision precision() const override { return precision_of<T>(); }
    std::size_t halo_bytes_per_step() const override { return s_->exchange->bytes_per_exchange(); }
    std::size_t largest_face_bytes() const override {
        const Layout& L = s_->layout;
        return sizeof(T) * std::max({halo_message_cells(L, 0), halo_message_cells(L, 1),
                                     halo_message_cells(L, 2)});
    }
    int steps_done() const override { return s_->steps_done; }
    const Tuning& interior_tuning() const override {
        return (s_->config.overlap ? s_->inner : s_->whole).tuning;
    }
    std::vector<LaunchBox> launch_boxes() const override {
        std::vector<LaunchBox> boxes;
        for (const LaunchBox* u : s_->updated_boxes())
            boxes.push_back(*u);
        return boxes;
    }
    void set_launch_shape(const std::array<int, 3>& extents, const Tuning& shape) override {
        for (LaunchBox* u : s_->updated_boxes())
            if (u->box.nx() == extents[0] && u->box.ny() == extents[1] && u->box.nz() == extents[2])
                u->tuning = shape;
        s_->shapes_changed();
    }
    bool graphs() const override { return s_->graphs; }
    std::uint64_t checksum() const override { return checksum_of(*s_); }
    std::vector<double> gather() const override { return gather_of(*s_); }
    double energy() const override { return energy_of(*s_); }
    double value_at(const std::array<int, 3>& cell) const override {
        return value_at_of(*s_, cell);
    }
    bool all_finite() const override { return all_finite_of(*s_); }
    std::vector<double> interior_copy() const override {
        const std::vector<T> cells = s_->local_interior();
        return std::vector<double>(cells.begin(), cells.end());
    }
    bool local_offset(const std::array<int, 3>& cell, std::size_t& offset) const override {
        std::array<int, 3> local;
        if (!s_->owns(cell, local)) return false;
        offset = s_->layout.index(local[0], local[1], local[2]);
        return true;
    }
    void sample(const std::size_t* offsets, int count, double* out) override {
        sample_of(*s_, offsets, count, out);
    }
    void settle() override { s_->settle(); }
    int first_nonfinite_rank() const override { return first_nonfinite_rank_of(*s_); }
    void set_value_at(const std::array<int, 3>& cell, double value) override {
        set_value_at_of(*s_, cell, value);
    }

private:
    // Behind a pointer so that const queries may settle the streams.
    std::unique_ptr<SimulationState<T>> s_;
};

} // namespace stencil
