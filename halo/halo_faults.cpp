#include "halo_faults.hpp"

#include "field_ops.hpp"

#include <cmath>
#include <cstdlib>
#include <utility>

namespace stencil {

template <class T>
HaloFaults<T>::HaloFaults(HaloExchange<T>& exchange, const HaloFaultSet& set)
    : exchange_(exchange), set_(set) {
    if (set.short_fused_pack)
        for (FaceSinks<T>& sinks : exchange_.sinks_)
            if (sinks.count) --sinks.box[0].x1, short_planted_ = true;
    if (set.wrong_face)
        for (FaceSinks<T>& sinks : exchange_.sinks_)
            swap_first_pair(sinks);
}

template <class T>
void HaloFaults<T>::swap_first_pair(FaceSinks<T>& sinks) {
    // Two sinks of one shape (a face and its opposite): each stores where
    // the other should, in bounds, and into the wrong halo.
    for (int a = 0; a < sinks.count; ++a)
        for (int b = a + 1; b < sinks.count; ++b) {
            const Box &p = sinks.box[a], &q = sinks.box[b];
            if (p.nx() != q.nx() || p.ny() != q.ny() || p.nz() != q.nz()) continue;
            std::swap(sinks.target[a], sinks.target[b]);
            std::swap(sinks.line[a], sinks.line[b]);
            std::swap(sinks.slice[a], sinks.slice[b]);
            wrong_planted_ = true;
            return;
        }
}

template <class T>
void HaloFaults<T>::before_pack(FieldView<T> field, FieldView<T> previous) {
    HaloExchange<T>& x = exchange_;
    if (!set_.poison || !x.moves_data()) return; // nothing would wait for the fill
    const T nan = T(std::nan(""));
    if (x.received_[0].count) launch_fill_faces(field, x.received_[0], nan, x.stream_);
    if (x.received_[1].count) launch_fill_faces(previous, x.received_[1], nan, x.stream_);
}

template <class T>
void HaloFaults<T>::after_unpack(FieldView<T> field, FieldView<T> previous) {
    if (set_.drop_face && !exchange_.fused_) drop_first_face(field, previous);
}

template <class T>
void HaloFaults<T>::before_boundary(FieldView<T> field, FieldView<T> next) {
    HaloExchange<T>& x = exchange_;
    if (!x.fused_) return;
    if (set_.poison) // what the sinks must overwrite in `next`
        for (const Box& b : x.self_targets_)
            launch_fill(next, b, T(std::nan("")), x.stream_);
    if (set_.drop_face) drop_first_face(field, field);
}

template <class T>
void HaloFaults<T>::drop_first_face(FieldView<T> field, FieldView<T> previous) {
    // A face's first part: every depth reads all of it.
    for (const auto& f : exchange_.faces_)
        if (std::abs(f.dir[0]) + std::abs(f.dir[1]) + std::abs(f.dir[2]) == 1) {
            launch_fill(f.level() == 0 ? field : previous, f.parts[0].recv, T(0),
                        exchange_.stream_);
            return;
        }
}

template class HaloFaults<float>;
template class HaloFaults<double>;

} // namespace stencil
