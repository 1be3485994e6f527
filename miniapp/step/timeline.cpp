#include "step/timeline.hpp"

#include "mpi_util.hpp"

#include <algorithm>

namespace stencil {

Timeline::Timeline(int slots, const std::vector<std::vector<Phase>>& schedules)
    : most_(0), keep_steps_(kKeepCycles * int(schedules.size())) {
    for (const std::vector<Phase>& phases : schedules) {
        most_ = std::max(most_, phases.size());
        schedules_.push_back(describe(phases));
    }
    const std::size_t marks = std::size_t(slots) * most_;
    start_.resize(marks), stop_.resize(marks), host_start_.resize(marks), host_stop_.resize(marks);
}

Timeline::Mark::Mark(Timeline* timeline, Lane lane, std::size_t index, int slot, Stream& stream)
    : timeline_(timeline), lane_(lane), at_(timeline ? timeline->at(slot, index) : 0),
      stream_(stream) {
    if (!timeline_) return;
    if (lane_ == Lane::Host)
        timeline_->host_start_[at_] = wall_clock_ms();
    else
        timeline_->start_[at_].record(stream_);
}

Timeline::Mark::~Mark() {
    if (!timeline_) return;
    if (lane_ == Lane::Host)
        timeline_->host_stop_[at_] = wall_clock_ms();
    else
        timeline_->stop_[at_].record(stream_);
}

// How far apart the clocks may be. A device span's time is the anchor's
// host time plus the device's elapsed time since the anchor event, so it
// is late by the time between that event's completion and the host seeing
// it (Event::synchronize returning: a few microseconds, tens where the
// runtime blocks rather than spins). The ranks leave MPI_Barrier about one
// message latency apart (a few microseconds on a node, more across
// nodes), which is how far their origins differ. The device timer and the
// host's steady clock drift apart by parts per million, and the elapsed
// times are floats in milliseconds (about a microsecond 16 s after the
// anchor): negligible for the first steps, which are the ones kept. On the
// HOST back-end events are the host clock itself, so only the barrier's
// skew remains.
void Timeline::anchor(MPI_Comm comm, Stream& compute, Stream& halo) {
    if (anchored_) return;
    compute.synchronize();
    halo.synchronize();
    MPI_CHECK(MPI_Barrier(comm));
    origin_ms_ = wall_clock_ms();
    anchor_event_.record(compute);
    anchor_event_.synchronize();
    anchor_ms_ = wall_clock_ms();
    anchored_ = true;
}

double Timeline::device_ms(const Event& e) const {
    return anchor_ms_ + elapsed_ms(anchor_event_, e) - origin_ms_;
}

void Timeline::collect(int step, int ring_step, int slot, const std::vector<Phase>& phases) {
    if (!anchored_ || steps_kept_ >= keep_steps_) return;
    ++steps_kept_;
    for (std::size_t i = 0; i < phases.size(); ++i) {
        const std::size_t k = at(slot, i);
        double start = 0, stop = 0;
        if (phases[i].lane == Lane::Host) {
            start = host_start_[k] - origin_ms_, stop = host_stop_[k] - origin_ms_;
        } else {
            start = device_ms(start_[k]), stop = device_ms(stop_[k]);
        }
        TimelineSpan s;
        s.start_us = start * 1e3, s.dur_us = (stop - start) * 1e3;
        s.step = step, s.ring_step = ring_step, s.index = double(i);
        s.kind = double(int(phases[i].kind)), s.lane = double(int(phases[i].lane));
        spans_.push_back(s);
    }
}

} // namespace stencil
