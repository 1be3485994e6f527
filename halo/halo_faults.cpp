#include "halo_faults.hpp"

#include "field_ops.hpp"

#include <cmath>
#include <cstdlib>
#include <utility>

namespace stencil {

template <class T>
HaloFaults<T>::HaloFaults(FaceRoutes<T>& routes, const HaloFaultSet& set)
    : routes_(routes), set_(set) {
    // Changed copies of the routes' sink tables, handed back below.
    const auto tables = routes_.sink_tables();
    FaceSinks<T> sinks[2] = {tables.of(0), tables.of(1)};
    if (set.short_fused_pack)
        for (FaceSinks<T>& s : sinks)
            if (s.count) --s.box[0].x1, short_planted_ = true;
    if (set.wrong_face)
        for (FaceSinks<T>& s : sinks)
            swap_first_pair(s);
    // The first linked sink of each array stores into the other array:
    // the time level the neighbour still reads in this step.
    const int linked = tables.first_linked;
    if (set.wrong_level && linked < tables.stored) {
        std::swap(sinks[0].target[linked], sinks[1].target[linked]);
        level_planted_ = true;
    }
    routes_.replace_sinks(sinks);
    // A face's first part: every depth reads all of it.
    for (const auto& f : routes_.routed_faces())
        if (std::abs(f.message.dir[0]) + std::abs(f.message.dir[1]) + std::abs(f.message.dir[2]) ==
            1) {
            first_face_ = &f.message;
            first_face_stored_ = f.route == FaceRoute::Linked ||
                                 (f.route == FaceRoute::Self && routes_.messages().fuses_pack());
            first_face_filled_ = f.route != FaceRoute::Message || routes_.mode() != CommMode::None;
            break;
        }
}

template <class T>
bool HaloFaults<T>::poison_planted() const {
    const HaloExchange<T>& x = routes_.messages();
    return x.moves_data() || !x.self_targets().empty();
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
void HaloFaults<T>::before_pack(FieldView<T> field, FieldView<T> previous, Stream& stream) {
    const HaloExchange<T>& x = routes_.messages();
    if (!set_.poison || !x.moves_data()) return; // nothing would wait for the fill
    const T nan = T(std::nan(""));
    if (x.received(0).count) launch_fill_faces(field, x.received(0), nan, stream);
    if (x.received(1).count) launch_fill_faces(previous, x.received(1), nan, stream);
}

template <class T>
void HaloFaults<T>::after_unpack(FieldView<T> field, FieldView<T> previous, Stream& stream) {
    if (set_.drop_face && !first_face_stored_) drop_first_face(field, previous, stream);
}

template <class T>
void HaloFaults<T>::before_update(FieldView<T> field, FieldView<T> next, Stream& stream) {
    if (set_.poison) // what the update's sinks must overwrite in `next`
        for (const Box& b : routes_.messages().self_targets())
            launch_fill(next, b, T(std::nan("")), stream);
    if (set_.drop_face && first_face_stored_) drop_first_face(field, field, stream);
}

template <class T>
void HaloFaults<T>::drop_first_face(FieldView<T> field, FieldView<T> previous, Stream& stream) {
    if (!first_face_) return;
    const HaloPart& part = first_face_->parts[0];
    launch_fill(part.level == 0 ? field : previous, part.recv, T(0), stream);
}

template class HaloFaults<float>;
template class HaloFaults<double>;

} // namespace stencil
