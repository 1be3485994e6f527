// HaloExchange's fused pack (halo_exchange.hpp, kernels/face_sinks.hpp):
// the sinks the boundary update stores faces into, the source's copies in
// them, and the priming that stands in for the update that did not run.
#include "halo_exchange.hpp"

#include "field_ops.hpp"

#include <algorithm>
#include <cmath>

namespace stencil {
namespace {

// The owned box less the faces the sinks hold (each a slab at one side of
// it), or an empty box where that is not a box (a rank as thin as a face).
template <class T>
Box cells_no_sink_holds(const FaceSinks<T>& sinks, const Box& owned) {
    Box skip = owned;
    for (int s = 0; s < sinks.count; ++s) {
        const Box& b = sinks.box[s];
        if (b.x0 == owned.x0 && b.x1 < owned.x1) skip.x0 = std::max(skip.x0, b.x1);
        if (b.x1 == owned.x1 && b.x0 > owned.x0) skip.x1 = std::min(skip.x1, b.x0);
        if (b.y0 == owned.y0 && b.y1 < owned.y1) skip.y0 = std::max(skip.y0, b.y1);
        if (b.y1 == owned.y1 && b.y0 > owned.y0) skip.y1 = std::min(skip.y1, b.y0);
        if (b.z0 == owned.z0 && b.z1 < owned.z1) skip.z0 = std::max(skip.z0, b.z1);
        if (b.z1 == owned.z1 && b.z0 > owned.z0) skip.z1 = std::min(skip.z1, b.z0);
    }
    for (int s = 0; s < sinks.count; ++s) {
        const Box& b = sinks.box[s];
        const bool apart = b.x1 <= skip.x0 || b.x0 >= skip.x1 || b.y1 <= skip.y0 ||
                           b.y0 >= skip.y1 || b.z1 <= skip.z0 || b.z0 >= skip.z1;
        if (!apart) return Box{};
    }
    return skip;
}

} // namespace

template <class T>
void HaloExchange<T>::build_fused_tables() {
    auto check = [](bool added) {
        if (!added) fatal("a fused pack with more faces than a table holds");
    };
    const Box owned = layout_.interior();
    for (int a = 0; a < 2; ++a) {
        T* const origin = array_origins_[std::size_t(a)];
        for (const Face& f : faces_) {
            if (f.parts.size() != 1) fatal("the fused pack expects one part per face (depth 1)");
            if (f.self) {
                // The halo at f's side is the other side's owned face: the
                // cells the opposite message carries, shifted by the period.
                const Box& from = faces_[std::size_t(f.opposite)].parts[0].send;
                const Box& to = f.parts[0].recv;
                const Box cells{std::max(from.x0, owned.x0), std::min(from.x1, owned.x1),
                                std::max(from.y0, owned.y0), std::min(from.y1, owned.y1),
                                std::max(from.z0, owned.z0), std::min(from.z1, owned.z1)};
                const Box filled{cells.x0 + to.x0 - from.x0, cells.x1 + to.x0 - from.x0,
                                 cells.y0 + to.y0 - from.y0, cells.y1 + to.y0 - from.y0,
                                 cells.z0 + to.z0 - from.z0, cells.z1 + to.z0 - from.z0};
                T* target = origin + layout_.index(filled.x0, filled.y0, filled.z0);
                check(sinks_[a].add(cells, target, layout_.line, (long long)layout_.slice));
                if (a == 0) self_targets_.push_back(filled);
                continue;
            }
            if (f.in_place) continue; // sent from the field's own planes
            const Box& b = f.parts[0].send;
            check(sinks_[a].add(b, f.send_by_array[a], b.nx(), (long long)b.nx() * b.ny()));
            check(prime_pack_[a].add(b, f.send_by_array[a]));
        }
    }
    for (FaceSinks<T>& sinks : sinks_)
        sinks.skip = cells_no_sink_holds(sinks, owned);
    // Priming a self face: its opposite's cells through that face's own
    // buffer, as the unfused exchange does.
    for (Face& f : faces_) {
        if (!f.self || f.in_place) continue;
        const Face& from = faces_[std::size_t(f.opposite)];
        for (int a = 0; a < 2; ++a)
            check(prime_pack_[a].add(from.parts[0].send, f.send_device));
        check(self_unpack_.add(f.parts[0].recv, f.send_device));
    }
}

template <class T>
int HaloExchange<T>::array_of(const T* origin) const {
    for (std::size_t a = 0; a < array_origins_.size(); ++a)
        if (array_origins_[a] == origin) return int(a);
    fatal("halo exchange asked to work on an array it was not built for");
}

template <class T>
const FaceSinks<T>& HaloExchange<T>::sinks_for(FieldView<T> next) const {
    static const FaceSinks<T> none{};
    return fused_ ? sinks_[array_of(next.origin)] : none;
}

template <class T>
std::vector<T*> HaloExchange<T>::sink_copies(FieldView<T> next, int i, int j, int k) const {
    std::vector<T*> copies;
    if (!fused_) return copies;
    const FaceSinks<T>& sinks = sinks_[array_of(next.origin)];
    for (int s = 0; s < sinks.count; ++s)
        if (sinks.box[s].contains(i, j, k)) copies.push_back(sinks.at(s, i, j, k));
    return copies;
}

template <class T>
void HaloExchange<T>::prime(FieldView<T> field, Stream& stream) {
    if (!fused_) return;
    const int a = array_of(field.origin);
    launch_pack_faces<T>(field, prime_pack_[a], stream);
    for (const Face& f : faces_)
        if (f.self && f.in_place) // whole planes: from the other side's owned planes
            copy_async(recv_target(f, field, field),
                       send_source(faces_[std::size_t(f.opposite)], field, field),
                       f.count * sizeof(T), stream);
    launch_unpack_faces<T>(field, self_unpack_, stream);
}

// Both precisions: an explicit instantiation of the class instantiates the
// members defined in this file (C++17 [temp.explicit]/10), as
// halo_exchange.cpp's does those defined there.
template class HaloExchange<float>;
template class HaloExchange<double>;

} // namespace stencil
