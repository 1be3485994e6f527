// HaloExchange's fused pack (halo_exchange.hpp, kernels/face_sinks.hpp):
// where the update kernels store the faces that this exchange carries to
// other ranks (the send buffers) or that fill the rank's own halos.
#include "halo_exchange.hpp"

#include <algorithm>

namespace stencil {
namespace {

Box intersect(const Box& a, const Box& b) {
    return {std::max(a.x0, b.x0), std::min(a.x1, b.x1), std::max(a.y0, b.y0),
            std::min(a.y1, b.y1), std::max(a.z0, b.z0), std::min(a.z1, b.z1)};
}

Box shifted(const Box& b, int dx, int dy, int dz) {
    return {b.x0 + dx, b.x1 + dx, b.y0 + dy, b.y1 + dy, b.z0 + dz, b.z1 + dz};
}

} // namespace

template <class T>
void HaloExchange<T>::build_fused_tables() {
    const Box owned = layout_.interior();
    for (const Face& f : faces_) {
        if (f.parts.size() != 1) fatal("the fused pack expects one part per face (depth 1)");
        if (!f.self) continue;
        // The halo at f's side is the other side's owned face: the cells
        // the opposite message carries, shifted by the period.
        const Box& from = faces_[std::size_t(f.opposite)].parts[0].send;
        const Box& to = f.parts[0].recv;
        self_targets_.push_back(
            shifted(intersect(from, owned), to.x0 - from.x0, to.y0 - from.y0, to.z0 - from.z0));
    }
}

template <class T>
void HaloExchange<T>::add_sinks(FaceSinks<T>& sinks, int array, bool messages) const {
    if (!fused_) return;
    const Box owned = layout_.interior();
    T* const origin = array_origins_[std::size_t(array)];
    std::size_t self = 0;
    for (const Face& f : faces_) {
        bool added = true;
        if (f.self != !messages) continue;
        if (f.self) {
            const Box& from = faces_[std::size_t(f.opposite)].parts[0].send;
            const Box& filled = self_targets_[self++];
            added = sinks.add(intersect(from, owned),
                              origin + layout_.index(filled.x0, filled.y0, filled.z0), layout_.line,
                              (long long)layout_.slice);
        } else if (!f.in_place) { // in place: sent from the field's own planes
            const Box& b = f.parts[0].send;
            added = sinks.add(b, f.send_by_array[array], b.nx(), (long long)b.nx() * b.ny());
        }
        if (!added) fatal("a fused pack with more faces than a table holds");
    }
}

template <class T>
int HaloExchange<T>::array_of(const T* origin) const {
    for (std::size_t a = 0; a < array_origins_.size(); ++a)
        if (array_origins_[a] == origin) return int(a);
    fatal("halo exchange asked to work on an array it was not built for");
}

// The members defined in this file, for both precisions. The class itself
// is instantiated once, in halo_exchange.cpp: a class's explicit
// instantiation may stand in one translation unit only ([temp.spec]).
#define STENCIL_FUSED_PACK_MEMBERS(T)                                                              \
    template void HaloExchange<T>::build_fused_tables();                                           \
    template void HaloExchange<T>::add_sinks(FaceSinks<T>&, int, bool) const;                      \
    template int HaloExchange<T>::array_of(const T*) const;
STENCIL_FUSED_PACK_MEMBERS(float)
STENCIL_FUSED_PACK_MEMBERS(double)

} // namespace stencil
