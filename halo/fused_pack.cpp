// HaloExchange's fused pack (halo_exchange.hpp, kernels/face_sinks.hpp):
// the sinks the boundary update stores faces into, the source's copies in
// them, and the priming that stands in for the update that did not run.
#include "halo_exchange.hpp"

#include "field_ops.hpp"
#include "peer_links.hpp"

#include <algorithm>
#include <cmath>

namespace stencil {
namespace {

Box intersect(const Box& a, const Box& b) {
    return {std::max(a.x0, b.x0), std::min(a.x1, b.x1), std::max(a.y0, b.y0),
            std::min(a.y1, b.y1), std::max(a.z0, b.z0), std::min(a.z1, b.z1)};
}

Box shifted(const Box& b, int dx, int dy, int dz) {
    return {b.x0 + dx, b.x1 + dx, b.y0 + dy, b.y1 + dy, b.z0 + dz, b.z1 + dz};
}

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
    const Box owned = layout_.interior();
    for (int a = 0; a < 2; ++a) {
        T* const origin = array_origins_[std::size_t(a)];
        for (std::size_t n = 0; n < faces_.size(); ++n) {
            const Face& f = faces_[n];
            if (f.parts.size() != 1) fatal("the fused pack expects one part per face (depth 1)");
            bool added = true;
            if (f.self) {
                // The halo at f's side is the other side's owned face: the
                // cells the opposite message carries, shifted by the period.
                const Box& from = faces_[std::size_t(f.opposite)].parts[0].send;
                const Box& to = f.parts[0].recv;
                const Box cells = intersect(from, owned);
                const Box filled =
                    shifted(cells, to.x0 - from.x0, to.y0 - from.y0, to.z0 - from.z0);
                T* target = origin + layout_.index(filled.x0, filled.y0, filled.z0);
                added = sinks_[a].add(cells, target, layout_.line, (long long)layout_.slice);
                if (a == 0) self_targets_.push_back(filled);
            } else if (f.linked) {
                added = add_linked_sink(sinks_[a], a, n, intersect(f.parts[0].send, owned));
            } else if (!f.in_place) { // in place: sent from the field's own planes
                const Box& b = f.parts[0].send;
                added = sinks_[a].add(b, f.send_by_array[a], b.nx(), (long long)b.nx() * b.ny());
            }
            if (!added) fatal("a fused pack with more faces than a table holds");
        }
    }
    for (FaceSinks<T>& sinks : sinks_)
        sinks.skip = cells_no_sink_holds(sinks, owned);
}

template <class T>
bool HaloExchange<T>::add_linked_sink(FaceSinks<T>& sinks, int array, std::size_t face,
                                      const Box& cells) {
    // The neighbour's cell for this rank's cell: shifted along the face's
    // axis by this rank's extent (towards +) or the neighbour's (towards -).
    const Face& f = faces_[face];
    const PeerLinks::Landing& l = peers_->landing(linked_index_[face]);
    const int extent[2][3] = {{layout_.nx, layout_.ny, layout_.nz},
                              {l.layout.nx, l.layout.ny, l.layout.nz}};
    int shift[3] = {0, 0, 0};
    for (int axis = 0; axis < 3; ++axis)
        if (f.dir[std::size_t(axis)] != 0)
            shift[axis] = f.dir[std::size_t(axis)] > 0 ? -extent[0][axis] : extent[1][axis];
    const Box there = shifted(cells, shift[0], shift[1], shift[2]);
    T* origin = reinterpret_cast<T*>(l.origin[std::size_t(array)]);
    if (T* staged = f.stage_by_array[array]) { // an x face: sent whole to the mailbox
        if (!l.mailbox[std::size_t(array)]) fatal("--comm peer: an x face without a mailbox");
        forwards_[array].push_back(
            {staged, reinterpret_cast<T*>(l.mailbox[std::size_t(array)]), cells.cells()});
        const bool added = mailbox_unpack_[array].add(
            f.parts[0].recv, reinterpret_cast<T*>(peers_->mailbox(linked_index_[face], array)));
        return added && sinks.add(cells, staged, cells.nx(), (long long)cells.nx() * cells.ny());
    }
    return sinks.add(cells, origin + l.layout.index(there.x0, there.y0, there.z0), l.layout.line,
                     (long long)l.layout.slice);
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
    if (peers_) { // every rank idle, so no store or count of an old step is in flight
        stream.synchronize();
        MPI_CHECK(MPI_Barrier(cart_));
        peers_->reset_counts();
    }
    launch_store_faces<T>(field, sinks_[array_of(field.origin)], stream);
    forward_staged(array_of(field.origin), stream);
    if (peers_) { // every neighbour's stores in before any rank's first step
        stream.synchronize();
        MPI_CHECK(MPI_Barrier(cart_));
    }
}

// The members defined in this file, for both precisions. The class itself
// is instantiated once, in halo_exchange.cpp: a class's explicit
// instantiation may stand in one translation unit only ([temp.spec]).
#define STENCIL_FUSED_PACK_MEMBERS(T)                                                              \
    template void HaloExchange<T>::build_fused_tables();                                           \
    template bool HaloExchange<T>::add_linked_sink(FaceSinks<T>&, int, std::size_t, const Box&);   \
    template int HaloExchange<T>::array_of(const T*) const;                                        \
    template const FaceSinks<T>& HaloExchange<T>::sinks_for(FieldView<T>) const;                   \
    template std::vector<T*> HaloExchange<T>::sink_copies(FieldView<T>, int, int, int) const;      \
    template void HaloExchange<T>::prime(FieldView<T>, Stream&);
STENCIL_FUSED_PACK_MEMBERS(float)
STENCIL_FUSED_PACK_MEMBERS(double)

} // namespace stencil
