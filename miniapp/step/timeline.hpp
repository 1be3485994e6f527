// --timeline: the phases of the first sampled steps as spans on one clock,
// for a trace viewer (report/timeline_file.* writes them as Chrome trace
// events). SimulationOf<T> owns one when the run asked for it; enqueue()
// marks each phase (Timeline::Mark), collect() reads a finished step's marks.
//
// Device phases are timed by events recorded before and after the phase on
// its stream; they are ordinary Events, so inside a graph capture they are
// nodes of the sampled twin, as the step timers are. Host phases take the
// host's wall clock. anchor() puts both on the host clock and the ranks on
// a common origin.
#pragma once

#include "schedule/step_phases.hpp"
#include "stream.hpp"

#include <mpi.h>

#include <cstddef>
#include <string>
#include <vector>

namespace stencil {

// One phase of one step on one rank, in microseconds from the rank's origin
// (anchor()); five doubles, so the ranks' spans gather as one flat array.
struct TimelineSpan {
    double start_us = 0, dur_us = 0;
    double step = 0;           // the physics step (1 for the first step of a run)
    double kind = 0, lane = 0; // PhaseKind, Lane
    double ring_step = 0;      // the step's place in the deep-halo cycle
    double index = 0;          // the phase's place in that step's schedule
    static constexpr int kFields = 7;
};

class Timeline {
public:
    // The first kKeepCycles sampled deep-halo cycles (one step per
    // schedule each) are kept, so the file stays small on long runs.
    static constexpr int kKeepCycles = 8;

    // `slots`: steps in flight (the step timers' ring); `schedules`: the
    // phases of each step of the deep-halo cycle (step_phases()).
    Timeline(int slots, const std::vector<std::vector<Phase>>& schedules);

    // Marks one phase while it lives: its start on construction, its end on
    // destruction. Inactive (null timeline): nothing recorded.
    class Mark {
    public:
        Mark(Timeline* timeline, Lane lane, std::size_t index, int slot, Stream& stream);
        ~Mark();
        Mark(const Mark&) = delete;
        Mark& operator=(const Mark&) = delete;

    private:
        Timeline* timeline_;
        Lane lane_;
        std::size_t at_;
        Stream& stream_;
    };

    // Collective over `comm`, once, with both streams idle (the first
    // sampled step, which follows a rewind or the run's start): the common
    // origin and the GPU-to-host anchor. Later calls do nothing.
    void anchor(MPI_Comm comm, Stream& compute, Stream& halo);
    bool anchored() const { return anchored_; }
    // Step `step` (physics numbering) ran `phases` in `slot` and is
    // finished: its marks become spans, while fewer than kKeepCycles
    // cycles are kept.
    void collect(int step, int ring_step, int slot, const std::vector<Phase>& phases);
    const std::vector<TimelineSpan>& spans() const { return spans_; }
    // describe() of each step's schedule, by ring step.
    const std::vector<std::string>& schedules() const { return schedules_; }

private:
    std::size_t at(int slot, std::size_t index) const { return std::size_t(slot) * most_ + index; }
    // Milliseconds on the host clock, from the rank's origin.
    double device_ms(const Event& e) const;

    std::size_t most_;
    int keep_steps_, steps_kept_ = 0;
    std::vector<Event> start_, stop_;            // device phases, by at(slot, index)
    std::vector<double> host_start_, host_stop_; // host phases: wall_clock_ms()
    bool anchored_ = false;
    Event anchor_event_;
    double anchor_ms_ = 0; // the host clock when anchor_event_ was complete
    double origin_ms_ = 0; // the host clock right after the barrier
    std::vector<std::string> schedules_;
    std::vector<TimelineSpan> spans_;
};

} // namespace stencil
