// SimulationOf<T>'s chunks: consecutive steps replayed as one graph.
//
// Where each step's device work is one run of the graph runner (nothing
// exchanged, or every face linked on the node), up to steps_per_graph_
// steps are captured once as one graph, each step's phase events inside it
// and one `done` at its end, and replayed with one launch. A chunk is the
// largest power of two up to that which starts at a multiple of itself and
// ends by the driver's next step with host work, so that a NaN check at
// step 50 costs a chunk of 2 before it and chunks of 2, 4 and 8 after it
// rather than 14 single steps.
// The clock's ring holds twice the longest chunk, so a step is read only
// after the graph that holds it was launched.
//
// A small box's step is bound by the host: a graph launch, an event record
// and the clock's reads each step took longer than the update itself. The
// update kernel alone, replayed 3000 times as one graph, ran 64^3 at 3.7 us
// a step on one H100, where the mini-app's step took 7.0. Four steps a
// graph, each with its own `done`, gained nothing (7.2 us): the clock read
// every step's. With one `done` a chunk, 64^3 ran 5.2 us a step (50.8
// Gcell/s, against 37.7), 96^3 103 against 90, 128^3 170 against 152, and
// 512^3 the same (docs/data/small-box-body-2026-12-06/). Chunks of up to
// 16 took 64^3 from 54.6 to 64.4 Gcell/s, 96^3 from 104 to 121, 128^3
// from 173 to 188 and 512^3 from 162.4 to 163.3: a 16-step graph launched
// in 8 us, and the host waited for the device (docs/data/
// small-box-host-2026-12-06/). So chunks of up to 16 are the default,
// except where faces are linked: a node's chunks of linked steps are not
// measured.
//
// On the HOST back-end, which has no graphs, a chunk enqueues the same
// phases in the same order, so CI runs its bookkeeping.
#include "step/simulation.hpp"
#include "step/simulation_impl.hpp"

namespace stencil {

// The steps a graph may hold at most (twice that fits the clock's ring of
// kHaloTimingSlots, step_clock.hpp), and by default; a power of two that
// divides the ring, so that the chunk graphs repeat with it.
inline constexpr int kMostStepsPerGraph = 16;
inline constexpr int kStepsPerGraph = 16;
static_assert(2 * kMostStepsPerGraph <= kHaloTimingSlots, "a chunk's steps are read after it");
static_assert(kHaloTimingSlots % kMostStepsPerGraph == 0, "chunks of each length tile the ring");

template <class T>
int SimulationOf<T>::chunk_steps() const {
    // The timeline's marks are per step, and --graphs off on a build that
    // has graphs asks for plain launches. A hook's phases on a stream are
    // device work, as the per-step graphs capture them: the planted races
    // of the linked route (testing/planted_phases.cpp) run in chunks too.
    if (options_.steps_per_graph == 1 || timeline_ || (!use_graphs_ && graphs_available()))
        return 1;
    for (const std::vector<Phase>& phases : schedules_)
        for (const Phase& p : phases)
            if (p.lane == Lane::Host && p.kind != PhaseKind::Begin) return 1;
    for (const std::vector<PhaseRun>& runs : runs_) {
        int captured = 0;
        for (const PhaseRun& r : runs)
            captured += r.captured && r.origin == Lane::Compute && !r.joins_halo;
        if (captured != 1) return 1;
    }
    if (options_.steps_per_graph > 0) return options_.steps_per_graph;
    // Linked steps wait for their neighbours on the device: chunks of them
    // are unmeasured on a node of several GPUs, so auto keeps one there.
    return routes_->linked_faces() > 0 ? 1 : kStepsPerGraph;
}

template <class T>
int SimulationOf<T>::chunk_starting_here(int left) const {
    // After the fused pack's priming (prime_if_due), outside the graphs;
    // aligned to its length, so that the chunks' graphs repeat with
    // chunk_period.
    if (!primed_) return 1;
    for (int m = steps_per_graph_; m > 1; m /= 2)
        if (left >= m && steps_done_ % m == 0) return m;
    return 1;
}

template <class T>
int SimulationOf<T>::chunk_period() const {
    const int sampling = depth_ * kPhaseSampling;
    int period = graph_period();
    while (period % sampling)
        period += graph_period();
    return period;
}

template <class T>
void SimulationOf<T>::step_chunk(int m, bool timed) {
    const int first = steps_done_;
    std::vector<StepState> steps;
    for (int n = first; n < first + m; ++n) {
        steps.push_back(state_of(n, next_timers(n, timed)));
        steps.back().timers.recorded = n == first + m - 1;
    }
    for (const StepState& s : steps) // Begin: host bookkeeping, before the device work
        for (const Phase& phase : schedules_[std::size_t(s.ring_step)])
            if (phase.lane == Lane::Host) enqueue(phase, s, s.timers.sampled);
    // The device work of steps [n0, n0 + m), each step's events by its
    // slot and its sampling as the clock decides them for `timed`.
    auto enqueue_chunk = [this](int n0, int length, bool on_time) {
        for (int n = n0; n < n0 + length; ++n) {
            const StepState s = state_of(n, clock_.slot_of(n));
            for (const Phase& phase : schedules_[std::size_t(s.ring_step)])
                if (phase.lane != Lane::Host) enqueue(phase, s, clock_.sampled(n, on_time));
        }
        // One done for the chunk: the clock times its steps together.
        clock_.slot_of(n0 + length - 1).done.record(compute_);
    };
    if (!use_graphs_) {
        enqueue_chunk(first, m, timed);
    } else {
        // The graphs of each length, longest first, each at every aligned
        // start of the period, on time and not.
        const int period = chunk_period();
        auto index = [&](int length, int n0, bool on_time) {
            std::size_t before = 0;
            for (int longer = steps_per_graph_; longer > length; longer /= 2)
                before += std::size_t(period / longer * 2);
            return before + std::size_t(n0 % period / length * 2 + on_time);
        };
        // All at once, at the first chunk, so no later chunk pays for a
        // capture: in the warm-up, where it holds two steps after the one
        // that primes (the default --warmup 32).
        if (chunk_graphs_.empty()) {
            chunk_graphs_.resize(index(1, 0, false));
            for (int length = steps_per_graph_; length > 1; length /= 2)
                for (int n0 = 0; n0 < period; n0 += length)
                    for (const bool on_time : {false, true})
                        chunk_graphs_[index(length, n0, on_time)] =
                            Graph::capture(compute_, [&] { enqueue_chunk(n0, length, on_time); });
        }
        chunk_graphs_[index(m, first, timed)].launch(compute_);
    }
    fields_->advance(m);
    steps_done_ += m;
}

// The members defined in this file, for both precisions (the class is
// instantiated in simulation.cpp alone; see simulation_queries.cpp).
#define STENCIL_CHUNK_MEMBERS(T)                                                                   \
    template int SimulationOf<T>::chunk_steps() const;                                             \
    template int SimulationOf<T>::chunk_starting_here(int) const;                                  \
    template int SimulationOf<T>::chunk_period() const;                                            \
    template void SimulationOf<T>::step_chunk(int, bool);
STENCIL_CHUNK_MEMBERS(float)
STENCIL_CHUNK_MEMBERS(double)

} // namespace stencil
