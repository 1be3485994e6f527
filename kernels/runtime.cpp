// Back-end implementations of memory.hpp and stream.hpp.
#include "memory.hpp"
#include "stream.hpp"

#include <atomic>
#include <cstdio>
#include <fstream>
#include <mutex>
#include <new>
#include <string>
#include <unordered_map>

namespace stencil {
namespace detail {
namespace {

std::atomic<std::size_t> g_pinned_bytes{0};
std::mutex g_pinned_mutex;
std::unordered_map<void*, std::size_t> g_pinned_sizes;

std::string mib(std::size_t bytes) {
    char text[64];
    std::snprintf(text, sizeof text, "%zu bytes (%.1f MiB)", bytes, bytes / 1048576.0);
    return text;
}

#if !STENCIL_HAS_GPU
// Host "device" memory: aligned like the GPU allocators, so the layout's
// 256-byte alignment claims hold on every back-end.
void* aligned_host_alloc(std::size_t bytes) {
    constexpr std::size_t alignment = 256;
    const std::size_t rounded = (bytes + alignment - 1) / alignment * alignment;
    void* p = std::aligned_alloc(alignment, rounded);
    if (!p)
        fatal("out of host memory: requested " + mib(bytes) + ", available " +
              mib(host_available_bytes()));
    return p;
}
#endif

} // namespace

std::size_t host_available_bytes() {
    std::ifstream meminfo("/proc/meminfo");
    std::string key;
    std::size_t kib = 0;
    while (meminfo >> key >> kib)
        if (key == "MemAvailable:")
            return kib * 1024;
        else
            meminfo.ignore(256, '\n');
    return 0;
}

void* allocate_device(std::size_t bytes) {
#if STENCIL_HAS_GPU
    void* p = nullptr;
    const gpu::Error err = STENCIL_RT(Malloc)(&p, bytes);
    if (err != gpu::kSuccess) {
        std::size_t free_bytes = 0, total_bytes = 0;
        (void)STENCIL_RT(MemGetInfo)(&free_bytes, &total_bytes);
        (void)STENCIL_RT(GetLastError)(); // clear the sticky allocation error
        fatal("device out of memory: requested " + mib(bytes) + ", free " + mib(free_bytes) +
              " of " + mib(total_bytes) + " (" + gpu::error_string(err) + ")");
    }
    return p;
#else
    return aligned_host_alloc(bytes);
#endif
}

void free_device(void* p) noexcept {
    if (!p) return;
#if STENCIL_HAS_GPU
    (void)STENCIL_RT(Free)(p); // never throw or abort from a destructor path
#else
    std::free(p);
#endif
}

void* allocate_pinned(std::size_t bytes) {
#if STENCIL_HAS_GPU
    void* p = nullptr;
    GPU_CHECK(gpu::malloc_pinned(&p, bytes));
#else
    void* p = aligned_host_alloc(bytes);
#endif
    std::lock_guard<std::mutex> lock(g_pinned_mutex);
    g_pinned_sizes[p] = bytes;
    g_pinned_bytes += bytes;
    return p;
}

void free_pinned(void* p) noexcept {
    if (!p) return;
    {
        std::lock_guard<std::mutex> lock(g_pinned_mutex);
        auto it = g_pinned_sizes.find(p);
        if (it != g_pinned_sizes.end()) {
            g_pinned_bytes -= it->second;
            g_pinned_sizes.erase(it);
        }
    }
#if STENCIL_HAS_GPU
    (void)gpu::free_pinned(p);
#else
    std::free(p);
#endif
}

std::size_t pinned_bytes_in_use() {
    return g_pinned_bytes;
}

void* allocate_pinned_result(std::size_t bytes) {
#if STENCIL_HAS_GPU
    void* p = nullptr;
    GPU_CHECK(gpu::malloc_pinned(&p, bytes));
    return p;
#else
    return aligned_host_alloc(bytes);
#endif
}

void free_pinned_result(void* p) noexcept {
#if STENCIL_HAS_GPU
    if (p) (void)gpu::free_pinned(p);
#else
    std::free(p);
#endif
}

} // namespace detail

void copy_async(void* dst, const void* src, std::size_t bytes, Stream& stream) {
#if STENCIL_HAS_GPU
    GPU_CHECK(STENCIL_RT(MemcpyAsync)(dst, src, bytes, STENCIL_RT(MemcpyDefault), stream.handle()));
#else
    (void)stream;
    std::memcpy(dst, src, bytes);
#endif
}

void copy(void* dst, const void* src, std::size_t bytes) {
#if STENCIL_HAS_GPU
    GPU_CHECK(STENCIL_RT(Memcpy)(dst, src, bytes, STENCIL_RT(MemcpyDefault)));
    // From pageable host memory, cudaMemcpy may return once the data is
    // staged, before its DMA reaches the device, and kernels on our
    // non-blocking streams do not wait for the legacy stream that carries
    // it. Without this wait a small kernel test could finish first and
    // then see its output overwritten by the poison fill: the likely cause
    // of two rare 'cells not written' failures, never reproduced at will.
    GPU_CHECK(STENCIL_RT(StreamSynchronize)(nullptr));
#else
    std::memcpy(dst, src, bytes);
#endif
}

// ---- Stream ----------------------------------------------------------------

Stream::Stream(StreamPriority priority) {
#if STENCIL_HAS_GPU
    int least = 0, greatest = 0; // numerically: greatest priority is the smallest number
    GPU_CHECK(STENCIL_RT(DeviceGetStreamPriorityRange)(&least, &greatest));
    const int value = priority == StreamPriority::High ? greatest : least;
    GPU_CHECK(STENCIL_RT(StreamCreateWithPriority)(&handle_, STENCIL_RT(StreamNonBlocking), value));
    GPU_CHECK(STENCIL_RT(EventCreateWithFlags)(&fence_, STENCIL_RT(EventDisableTiming)));
#else
    (void)priority;
#endif
}

Stream::~Stream() {
#if STENCIL_HAS_GPU
    if (fence_) (void)STENCIL_RT(EventDestroy)(fence_);
    if (handle_) (void)STENCIL_RT(StreamDestroy)(handle_);
#endif
}

Stream::Stream(Stream&& other) noexcept {
#if STENCIL_HAS_GPU
    handle_ = std::exchange(other.handle_, nullptr);
    fence_ = std::exchange(other.fence_, nullptr);
#else
    (void)other;
#endif
}

Stream& Stream::operator=(Stream&& other) noexcept {
#if STENCIL_HAS_GPU
    if (this != &other) {
        if (fence_) (void)STENCIL_RT(EventDestroy)(fence_);
        if (handle_) (void)STENCIL_RT(StreamDestroy)(handle_);
        handle_ = std::exchange(other.handle_, nullptr);
        fence_ = std::exchange(other.fence_, nullptr);
    }
#else
    (void)other;
#endif
    return *this;
}

void Stream::synchronize() {
#if STENCIL_HAS_GPU
    GPU_CHECK(STENCIL_RT(StreamSynchronize)(handle_));
#endif
}

void Stream::wait_for(Stream& other) {
#if STENCIL_HAS_GPU
    // A plain record: inside a capture it stays an edge of the graph.
    GPU_CHECK(STENCIL_RT(EventRecord)(fence_, other.handle_));
    GPU_CHECK(STENCIL_RT(StreamWaitEvent)(handle_, fence_, 0));
#else
    (void)other;
#endif
}

// ---- Event -----------------------------------------------------------------

namespace {
thread_local bool t_capturing = false; // see detail::set_capturing
} // namespace

void detail::set_capturing(bool on) {
    t_capturing = on;
}

Event::Event() {
#if STENCIL_HAS_GPU
    GPU_CHECK(STENCIL_RT(EventCreate)(&handle_));
#endif
}

Event::~Event() {
#if STENCIL_HAS_GPU
    if (handle_) (void)STENCIL_RT(EventDestroy)(handle_);
#endif
}

Event::Event(Event&& other) noexcept {
#if STENCIL_HAS_GPU
    handle_ = std::exchange(other.handle_, nullptr);
#else
    time_ = other.time_;
#endif
}

Event& Event::operator=(Event&& other) noexcept {
#if STENCIL_HAS_GPU
    if (this != &other) {
        if (handle_) (void)STENCIL_RT(EventDestroy)(handle_);
        handle_ = std::exchange(other.handle_, nullptr);
    }
#else
    time_ = other.time_;
#endif
    return *this;
}

void Event::record(Stream& stream) {
#if STENCIL_HAS_GPU
#if STENCIL_HAVE_GRAPHS
    if (t_capturing) {
        GPU_CHECK(STENCIL_RT(EventRecordWithFlags)(handle_, stream.handle(),
                                                   STENCIL_RT(EventRecordExternal)));
        return;
    }
#endif
    GPU_CHECK(STENCIL_RT(EventRecord)(handle_, stream.handle()));
#else
    (void)stream;
    time_ = std::chrono::steady_clock::now();
#endif
}

void Event::synchronize() {
#if STENCIL_HAS_GPU
    GPU_CHECK(STENCIL_RT(EventSynchronize)(handle_));
#endif
}

double elapsed_ms(const Event& start, const Event& stop) {
#if STENCIL_HAS_GPU
    float ms = 0.0f;
    GPU_CHECK(STENCIL_RT(EventElapsedTime)(&ms, start.handle_, stop.handle_));
    return ms;
#else
    return std::chrono::duration<double, std::milli>(stop.time_ - start.time_).count();
#endif
}

} // namespace stencil
