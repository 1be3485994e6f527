// RAII owners of device and pinned host memory, and the copies between them.
//
// On the HOST back-end "device" memory is ordinary 256-byte-aligned host
// memory, so halo/ and miniapp/ are written once for every back-end.
// Owners are move-only; kernels never see them, only views (field.hpp).
#pragma once

#include "gpu_runtime.hpp"
#include "stream.hpp"

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>

namespace stencil {

namespace detail {
void* allocate_device(std::size_t bytes);
void free_device(void* p) noexcept;
void* allocate_pinned(std::size_t bytes);
void free_pinned(void* p) noexcept;
// Counts the pinned host bytes currently held, so that a run can prove it
// staged nothing through the host (gpu-aware MPI allocates none).
std::size_t pinned_bytes_in_use();
// Pinned words the host reads a result into (the NaN check's count): not
// staging, so pinned_bytes_in_use() leaves them out.
void* allocate_pinned_result(std::size_t bytes);
void free_pinned_result(void* p) noexcept;
// The node's MemAvailable (/proc/meminfo), or 0 where it cannot be read.
std::size_t host_available_bytes();
} // namespace detail

// Owner of `count` elements of T allocated with `Alloc`/`Free`.
template <class T, void* (*Alloc)(std::size_t), void (*Free)(void*) noexcept>
class OwnedArray {
public:
    OwnedArray() = default;
    explicit OwnedArray(std::size_t count)
        : data_(count ? static_cast<T*>(Alloc(count * sizeof(T))) : nullptr), count_(count) {}
    ~OwnedArray() { Free(data_); }
    OwnedArray(OwnedArray&& other) noexcept
        : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}
    OwnedArray& operator=(OwnedArray&& other) noexcept {
        if (this != &other) {
            Free(data_);
            data_ = std::exchange(other.data_, nullptr);
            count_ = std::exchange(other.count_, 0);
        }
        return *this;
    }
    OwnedArray(const OwnedArray&) = delete;
    OwnedArray& operator=(const OwnedArray&) = delete;

    T* data() { return data_; }
    const T* data() const { return data_; }
    std::size_t size() const { return count_; }
    std::size_t bytes() const { return count_ * sizeof(T); }

private:
    T* data_ = nullptr;
    std::size_t count_ = 0;
};

template <class T>
using DeviceArray = OwnedArray<T, detail::allocate_device, detail::free_device>;
template <class T>
using PinnedArray = OwnedArray<T, detail::allocate_pinned, detail::free_pinned>;
template <class T>
using PinnedResult = OwnedArray<T, detail::allocate_pinned_result, detail::free_pinned_result>;

// Copies `bytes` between any two of host, pinned and device memory, ordered on `stream`.
void copy_async(void* dst, const void* src, std::size_t bytes, Stream& stream);
// Same, but returns only when the copy is complete.
void copy(void* dst, const void* src, std::size_t bytes);

template <class T>
void copy_to_device(DeviceArray<T>& dst, const T* src) {
    copy(dst.data(), src, dst.bytes());
}
template <class T>
void copy_to_host(T* dst, const DeviceArray<T>& src) {
    copy(dst, src.data(), src.bytes());
}

} // namespace stencil
