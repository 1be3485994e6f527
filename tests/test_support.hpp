// Helpers shared by the test suites: fields on the host, random fills and
// the poison pattern that proves which cells a kernel wrote.
#pragma once

#include "field.hpp"
#include "layout.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

namespace stencil::test {

// A host field: the allocation and a view of it, in precision T.
template <class T>
struct HostField {
    Layout layout;
    std::vector<T> storage;
    explicit HostField(const Layout& l, T fill = T(0)) : layout(l), storage(l.allocation(), fill) {}
    FieldView<T> view() { return view_of(storage.data(), layout); }
    FieldView<const T> cview() const { return view_of(storage.data(), layout); }
    T& operator()(int i, int j, int k) { return view()(i, j, k); }
    T operator()(int i, int j, int k) const { return cview()(i, j, k); }
};

// A NaN with a payload no arithmetic produces: a cell that still holds these
// exact bits was never written. One pattern per precision.
template <class T>
T poison() {
    static_assert(sizeof(T) == 4 || sizeof(T) == 8);
    T value;
    if constexpr (sizeof(T) == 4) {
        const std::uint32_t bits = 0x7fc0dead;
        std::memcpy(&value, &bits, sizeof value);
    } else {
        const std::uint64_t bits = 0x7ff800000000deadull;
        std::memcpy(&value, &bits, sizeof value);
    }
    return value;
}
template <class T>
bool is_poison(T value) {
    const T p = poison<T>();
    return std::memcmp(&value, &p, sizeof value) == 0;
}
inline float poison_float() {
    return poison<float>();
}

// Fills every cell of the padded box (halo included) with uniform values in [lo, hi).
template <class T>
void fill_random(HostField<T>& f, std::mt19937_64& rng, double lo = -1.0, double hi = 1.0) {
    std::uniform_real_distribution<double> dist(lo, hi);
    const Box all = f.layout.padded();
    for (int k = all.z0; k < all.z1; ++k)
        for (int j = all.y0; j < all.y1; ++j)
            for (int i = all.x0; i < all.x1; ++i)
                f(i, j, k) = T(dist(rng));
}

// Seeds from the test's own random device so that every run draws fresh inputs;
// the seed is printed on failure through SCOPED_TRACE by callers.
inline std::uint64_t fresh_seed() {
    return std::random_device{}() * 0x9E3779B97F4A7C15ull + 1;
}

} // namespace stencil::test
