#include "face_routes.hpp"

#include "field_ops.hpp"
#include "mpi_util.hpp"

#include <algorithm>
#include <cmath>

namespace stencil {
namespace {

Box intersect(const Box& a, const Box& b) {
    return {std::max(a.x0, b.x0), std::min(a.x1, b.x1), std::max(a.y0, b.y0),
            std::min(a.y1, b.y1), std::max(a.z0, b.z0), std::min(a.z1, b.z1)};
}

// The axis of a face's direction, or -1 for an edge or a corner.
int face_axis(const std::array<int, 3>& dir) {
    if (std::abs(dir[0]) + std::abs(dir[1]) + std::abs(dir[2]) != 1) return -1;
    return dir[0] != 0 ? 0 : dir[1] != 0 ? 1 : 2;
}

// The owned box less the faces the sinks hold (each a slab at one side of
// it), or an empty box where that is not a box (a rank as thin as a face):
// the cells whose threads skip the sinks after one test.
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
FaceRoutes<T>::FaceRoutes(const Decomposition& d, const Layout& layout, int radius, int depth,
                          CommMode mode, const std::array<T*, 2>& arrays, Stream& halo_stream,
                          bool stores_faces, const LinkMemory& link)
    : mode_(mode), layout_(layout), radius_(radius), cart_(d.cart.get()) {
    for (const HaloMessage& m : plan_halo_messages(d, layout, radius, depth))
        faces_.push_back({m, m.self ? FaceRoute::Self : FaceRoute::Message});
    std::array<bool, kDirections> linked{};
    if (links_node(mode)) {
        if (depth != 1) fatal("a link path stores the faces every step: halo depth 1 only");
        std::vector<LinkPath::Face> towards;
        link_index_.assign(faces_.size(), 0);
        for (std::size_t f = 0; f < faces_.size(); ++f)
            if (faces_[f].route != FaceRoute::Self) {
                link_index_[f] = towards.size();
                towards.push_back(
                    {direction_index(faces_[f].message.dir), faces_[f].message.neighbour});
            }
        links_ = make_link_path(mode, cart_, link, towards, layout);
        for (std::size_t f = 0; f < faces_.size(); ++f)
            if (faces_[f].route != FaceRoute::Self && links_->linked(link_index_[f])) {
                faces_[f].route = FaceRoute::Linked;
                linked[std::size_t(direction_index(faces_[f].message.dir))] = true;
                ++linked_;
            }
    }
    // Faces that leave the node go by GPU-aware MPI.
    const CommMode carried = links_node(mode) ? CommMode::GpuAware : mode;
    exchange_ = std::make_unique<HaloExchange<T>>(d, layout, radius, depth, carried,
                                                  std::vector<T*>{arrays[0], arrays[1]},
                                                  halo_stream, stores_faces, linked);
    // The faces the next update reads from where they are stored (self,
    // then linked), then the send buffers: the one-box kernel never updates
    // a message face's cells with overlap on, and with overlap off they are
    // packed (setup in the step), so its table holds the first ones alone.
    for (int a = 0; a < 2; ++a) {
        exchange_->add_sinks(sinks_[a], a, false);
        first_linked_sink_ = sinks_[a].count;
        add_linked_sinks(sinks_[a], a);
        stored_sinks_ = sinks_[a].count;
        exchange_->add_sinks(sinks_[a], a, true);
    }
    publish_sinks();
}

template <class T>
void FaceRoutes<T>::publish_sinks() {
    // Faces no group of the update's cells can hold two of: a face and the
    // gap to its opposite of two groups at least.
    const int apart = radius_ + 2 * int(16 / sizeof(T));
    const Box owned = layout_.interior();
    FaceSinks<T> one_box[2];
    for (int a = 0; a < 2; ++a) {
        FaceSinks<T>& all = sinks_[a];
        all.skip = all.count ? cells_no_sink_holds(all, owned) : Box{0, 0, 0, 0, 0, 0};
        for (int s = 0; s < stored_sinks_; ++s)
            one_box[a].add(all.box[s], all.target[s], all.line[s], all.slice[s]);
        if (one_box[a].count) one_box[a].skip = cells_no_sink_holds(one_box[a], owned);
        one_box[a].find_direct(owned, exchange_->array_origin(a), layout_.line,
                               (long long)layout_.slice, apart);
    }
    copy_to_device(device_sinks_, one_box);
    one_box_stores_ = one_box[0].count > 0;
}

template <class T>
FaceRoutes<T>::~FaceRoutes() = default;

template <class T>
void FaceRoutes<T>::replace_sinks(const FaceSinks<T> (&tables)[2]) {
    for (int a = 0; a < 2; ++a) {
        if (tables[a].count != sinks_[a].count)
            fatal("FaceRoutes::replace_sinks: the tables must keep the routes' sinks");
        sinks_[a] = tables[a];
    }
    publish_sinks();
}

template <class T>
void FaceRoutes<T>::add_linked_sinks(FaceSinks<T>& sinks, int array) const {
    const Box owned = layout_.interior();
    for (std::size_t f = 0; f < faces_.size(); ++f) {
        if (faces_[f].route != FaceRoute::Linked) continue;
        const HaloMessage& m = faces_[f].message;
        const LinkPath::NeighbourArrays& l = links_->neighbour_arrays(link_index_[f]);
        // The neighbour's cell for this rank's cell: shifted along the
        // face's axis by this rank's extent (towards +) or the neighbour's
        // (towards -).
        const int mine[3] = {layout_.nx, layout_.ny, layout_.nz};
        const int theirs[3] = {l.layout.nx, l.layout.ny, l.layout.nz};
        const int axis = face_axis(m.dir);
        int shift[3] = {0, 0, 0};
        shift[axis] = m.dir[std::size_t(axis)] > 0 ? -mine[axis] : theirs[axis];
        const Box cells = intersect(m.parts[0].send, owned);
        T* origin = reinterpret_cast<T*>(l.origin[std::size_t(array)]);
        if (!sinks.add(cells,
                       origin + l.layout.index(cells.x0 + shift[0], cells.y0 + shift[1],
                                               cells.z0 + shift[2]),
                       l.layout.line, (long long)l.layout.slice))
            fatal("linked faces: more faces than a sink table holds");
    }
}

template <class T>
std::array<bool, 6> FaceRoutes<T>::exchanged_sides() const {
    std::array<bool, 6> sides{};
    for (const RoutedFace& f : faces_) {
        const int axis = face_axis(f.message.dir);
        if (axis < 0) continue;
        const bool exchanged = f.route == FaceRoute::Message ||
                               (f.route == FaceRoute::Self && !exchange_->fuses_pack());
        sides[std::size_t(2 * axis + (f.message.dir[std::size_t(axis)] > 0))] = exchanged;
    }
    return sides;
}

template <class T>
const FaceSinks<T>& FaceRoutes<T>::sinks_for(FieldView<T> next) const {
    return sinks_[array_of(next.origin)];
}

template <class T>
const FaceSinks<T>* FaceRoutes<T>::device_sinks_for(FieldView<T> next) const {
    return one_box_stores_ ? device_sinks_.data() + array_of(next.origin) : nullptr;
}

template <class T>
std::vector<T*> FaceRoutes<T>::sink_copies(FieldView<T> next, int i, int j, int k) const {
    std::vector<T*> copies;
    const FaceSinks<T>& sinks = sinks_for(next);
    for (int s = 0; s < sinks.count; ++s)
        if (sinks.box[s].contains(i, j, k)) copies.push_back(sinks.at(s, i, j, k));
    return copies;
}

template <class T>
void FaceRoutes<T>::prime(FieldView<T> field, Stream& stream) {
    if (links_) { // every rank idle, so no store or count of an old step is in flight
        stream.synchronize();
        MPI_CHECK(MPI_Barrier(cart_));
        links_->restart_counts();
    }
    launch_store_faces<T>(field, sinks_for(field), stream);
    if (links_) { // every neighbour's stores in before any rank's first step
        stream.synchronize();
        MPI_CHECK(MPI_Barrier(cart_));
    }
}

template <class T>
int FaceRoutes<T>::faces() const {
    if (mode_ != CommMode::None) return int(faces_.size());
    return self_faces();
}

template <class T>
int FaceRoutes<T>::self_faces() const {
    return int(std::count_if(faces_.begin(), faces_.end(),
                             [](const RoutedFace& f) { return f.route == FaceRoute::Self; }));
}

template <class T>
std::string FaceRoutes<T>::describe() const {
    const CommMode carried = links_node(mode_) ? CommMode::GpuAware : mode_;
    std::string routes;
    for (const RoutedFace& f : faces_) {
        const int axis = face_axis(f.message.dir);
        if (axis < 0) continue;
        const char* route = f.route == FaceRoute::Self     ? "self"
                            : f.route == FaceRoute::Linked ? comm_mode_name(mode_)
                                                           : comm_mode_name(carried);
        routes += std::string(routes.empty() ? "" : ", ") +
                  (f.message.dir[std::size_t(axis)] < 0 ? "-" : "+") + "xyz"[axis] + " " + route;
    }
    return routes;
}

template class FaceRoutes<float>;
template class FaceRoutes<double>;

} // namespace stencil
