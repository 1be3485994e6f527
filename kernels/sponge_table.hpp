// The sponge's factors in device memory, the owner of what a Sponge's
// table32 or table64 points to: one Damping pair a depth 0..W, filled on
// the host by damping_at, so that the kernels load exactly what the host
// reference computes.
#pragma once

#include "memory.hpp"
#include "sponge.hpp"

#include <type_traits>
#include <vector>

namespace stencil {

template <class T>
class SpongeTable {
public:
    explicit SpongeTable(const Sponge& sponge)
        : factors_(sponge.width > 0 ? std::size_t(sponge.width) + 1 : 0) {
        if (sponge.width == 0) return;
        std::vector<Damping<T>> host(factors_.size()); // depth 0: undamped, never read
        for (int n = 1; n <= sponge.width; ++n)
            host[std::size_t(n)] = damping_at<T>(n, sponge.width, sponge.strength);
        copy_to_device(factors_, host.data());
    }

    // `sponge` reading its factors from this table, which must outlive it.
    Sponge attach(Sponge sponge) const {
        if constexpr (std::is_same_v<T, float>)
            sponge.table32 = factors_.data();
        else
            sponge.table64 = factors_.data();
        return sponge;
    }

private:
    DeviceArray<Damping<T>> factors_;
};

} // namespace stencil
