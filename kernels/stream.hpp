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
#if STENCIL_HAS_GPU
    gpu::StreamHandle handle() const {
        return handle_;
    }

private:
    gpu::StreamHandle handle_ = nullptr;
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

    void record(Stream& stream);
    void synchronize();
    // Makes `stream` wait for this event without blocking the host.
    void make_wait(Stream& stream);

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

// Host wall-clock milliseconds (steady), for phases the host itself waits in.
inline double wall_clock_ms() {
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

} // namespace stencil
