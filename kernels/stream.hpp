// RAII streams and events.
//
// The mini-app runs two streams: a high-priority "halo" stream for pack,
// copies and unpack, and a normal "compute" stream for the stencil, so the
// small halo kernels are scheduled ahead of the long interior kernel.
// On the HOST back-end work runs synchronously at the call, so a stream is
// empty and an event records the wall-clock time at which it is recorded;
// timing code is then the same for every back-end.
#pragma once

#include "gpu_runtime.hpp"

#include <chrono>

namespace stencil {

enum class StreamPriority { Normal, High };

class Stream {
public:
    explicit Stream(StreamPriority priority = StreamPriority::Normal);
    ~Stream();
    Stream(Stream&& other) noexcept;
    Stream& operator=(Stream&& other) noexcept;
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;

    void synchronize();
    // Makes this stream's later work wait for everything enqueued on `other`
    // so far, without blocking the host. While `other` is being captured
    // into a graph this is an edge inside the graph: it forks this stream
    // into the capture, or joins it back.
    void wait_for(Stream& other);
#if STENCIL_HAS_GPU
    gpu::StreamHandle handle() const {
        return handle_;
    }

private:
    gpu::StreamHandle handle_ = nullptr;
    gpu::EventHandle fence_ = nullptr; // recorded on the stream waited for; no timing
#endif
};

class Event {
public:
    Event();
    ~Event();
    Event(Event&& other) noexcept;
    Event& operator=(Event&& other) noexcept;
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;

    // On a stream being captured into a graph, the record is a node of the
    // graph, so the event still marks a point the host can wait for and
    // time when the graph is replayed.
    void record(Stream& stream);
    void synchronize();

    // Milliseconds between two recorded, completed events.
    friend double elapsed_ms(const Event& start, const Event& stop);

private:
#if STENCIL_HAS_GPU
    gpu::EventHandle handle_ = nullptr;
#else
    std::chrono::steady_clock::time_point time_{};
#endif
};

double elapsed_ms(const Event& start, const Event& stop);

namespace detail {
// Set by Graph::capture while this thread's stream work is being captured,
// so that Event::record knows without asking the runtime on every record.
void set_capturing(bool on);
} // namespace detail

// Host wall-clock milliseconds (steady), for phases the host itself waits in.
inline double wall_clock_ms() {
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

} // namespace stencil
