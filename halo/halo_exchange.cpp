#include "halo_exchange.hpp"

#include "field_ops.hpp"
#include "stencil.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdlib>

namespace stencil {

template <class T>
HaloExchange<T>::HaloExchange(const Decomposition& d, const Layout& layout, int radius, int depth,
                              CommMode mode, const std::vector<T*>& arrays, Stream& halo_stream,
                              bool fuse_pack, const std::array<bool, kDirections>& elsewhere)
    : mode_(mode), layout_(layout), stream_(halo_stream) {
    if (links_node(mode)) fatal(std::string("--comm ") + comm_mode_name(mode) + " is a link path");
    for (T* base : arrays)
        array_origins_.push_back(view_of(base, layout).origin);
    plan_faces(d, radius, depth, elsewhere);
    // Staged copies each face to pinned memory after a pack: only a rank
    // that sends nothing to others skips it.
    fused_ = fuse_pack && depth == 1 && !idle() && arrays.size() == 2 &&
             (takes_fused_pack(mode) || self_faces_ == faces());
    by_message_ = faces() - self_faces_;
    allocate_buffers();
    build_face_tables();
    if (fused_) build_fused_tables();
    connect_path(d);
}

template <class T>
void HaloExchange<T>::plan_faces(const Decomposition& d, int radius, int depth,
                                 const std::array<bool, kDirections>& elsewhere) {
    for (const HaloMessage& m : plan_halo_messages(d, layout_, radius, depth)) {
        largest_ = std::max(largest_, m.count);
        // CommMode::None moves no message, but a rank's own faces are no
        // messages: a rank alone on a periodic box keeps its physics.
        if ((mode_ == CommMode::None && !m.self) || elsewhere[std::size_t(direction_index(m.dir))])
            continue; // sizes only
        if (m.count > std::size_t(INT_MAX))
            fatal("a halo message of " + std::to_string(m.count) +
                  " cells exceeds MPI's int count");
        faces_.push_back(Face{m});
        self_faces_ += m.self;
    }
}

// Packed messages to one neighbour travel as one message: on a 2 x 2 split
// with periodic axes the x faces towards both sides go to the same rank,
// and a deep halo's faces and edges to three. Each message costs MPI a
// handshake: at 128^3 a step with halo depth 2 waited 130-150 us for its
// 16 messages against 35-42 us for depth 1's four
// (docs/performance-history.md, "Deep halos: one message a peer").
template <class T>
void HaloExchange<T>::allocate_buffers() {
    std::vector<std::vector<Face*>> by_neighbour;
    for (Face& f : faces_) {
        bytes_ += 2 * f.count * sizeof(T);
        if (f.in_place || f.self) continue;
        auto group = std::find_if(by_neighbour.begin(), by_neighbour.end(), [&](const auto& g) {
            return g.front()->neighbour == f.neighbour;
        });
        if (group == by_neighbour.end())
            group = by_neighbour.insert(by_neighbour.end(), std::vector<Face*>{});
        group->push_back(&f);
    }
    for (std::vector<Face*>& faces : by_neighbour)
        allocate_neighbour_block(faces);
    // A rank's own faces: a pack buffer the unpack reads (none when fused).
    for (Face& f : faces_)
        if (f.self && !f.in_place && !fused_) {
            device_buffers_.emplace_back(f.count);
            f.send_device = device_buffers_.back().data();
        }
}

// One neighbour's block: the faces this rank sends it lie in plan order
// (direction, then level); the faces it sends this rank lie in the order
// it packs them, its plan order, which here is by opposite direction, then
// level.
template <class T>
void HaloExchange<T>::allocate_neighbour_block(std::vector<Face*>& faces) {
    std::size_t count = 0;
    for (const Face* f : faces)
        count += f->count;
    if (count > std::size_t(INT_MAX))
        fatal("the halo message to rank " + std::to_string(faces.front()->neighbour) + " of " +
              std::to_string(count) + " cells exceeds MPI's int count");
    // The fused pack writes step n+1's faces while step n's may still be
    // in flight: two send blocks, one per time-level array.
    NeighbourBlock block{faces.front()->neighbour, count, {}, nullptr};
    device_buffers_.emplace_back(count);
    block.send[0] = block.send[1] = device_buffers_.back().data();
    if (fused_) {
        device_buffers_.emplace_back(count);
        block.send[1] = device_buffers_.back().data();
    }
    device_buffers_.emplace_back(count);
    block.recv = device_buffers_.back().data();
    std::size_t at = 0;
    for (Face* f : faces) {
        f->send_device = block.send[0] + at;
        for (int a = 0; a < 2; ++a)
            f->send_by_array[a] = fused_ ? block.send[a] + at : nullptr;
        at += f->count;
    }
    std::stable_sort(faces.begin(), faces.end(), [](const Face* a, const Face* b) {
        return opposite(direction_index(a->dir)) < opposite(direction_index(b->dir));
    });
    at = 0;
    for (Face* f : faces) {
        f->recv_device = block.recv + at;
        at += f->count;
    }
    neighbour_blocks_.push_back(block);
}

template <class T>
void HaloExchange<T>::build_face_tables() {
    auto add = [](FaceTable<T>& table, const Box& box, T* buffer) {
        if (!table.add(box, buffer))
            fatal("a halo exchange with more parts than a face table holds");
    };
    // A rank that is its own neighbour towards dir (periodic, alone along
    // it) sends nothing to itself: its halo there is filled from the message
    // towards -dir, packed parts straight from that message's pack buffer by
    // the unpack, in-place planes by a device copy (unpack()).
    // With the fused pack, no pack table (the boundary update packs) and
    // no self face here (the boundary update fills those halos).
    for (Face& f : faces_) {
        if (f.self) f.opposite = int(matching(f));
        if (f.in_place || (fused_ && f.self)) continue;
        const Face& source = f.self ? faces_[std::size_t(f.opposite)] : f;
        T* send = f.send_device;
        const T* recv = f.self ? source.send_device : f.recv_device;
        for (const HaloPart& part : f.parts) {
            if (!fused_) add(pack_table_[part.level], part.send, send);
            add(unpack_table_[part.level], part.recv, const_cast<T*>(recv));
            send += part.send.cells();
            recv += part.recv.cells();
        }
    }
    for (const Face& f : faces_)
        for (const HaloPart& part : f.parts)
            if (!(fused_ && f.self)) add(received_[part.level], part.recv, nullptr);
}

template <class T>
void HaloExchange<T>::connect_path(const Decomposition& d) {
    if (idle() || by_message_ == 0) return; // nothing goes to another rank by message
    // The messages to other ranks, by the array that is p(t_n): in-place
    // faces are its planes (the other array is then p(t_n-1)). The message
    // received from the neighbour at dir was sent towards -dir.
    std::vector<PathMessage<T>> messages;
    std::vector<std::array<int, 2>> order; // each message's opposite direction and level
    const auto view_at = [&](T* origin) { return view_of(origin - layout_.front, layout_); };
    for (const Face& f : faces_) {
        if (f.self || !f.in_place) continue; // packed faces go in their neighbour's block
        const int towards = direction_index(f.dir);
        PathMessage<T> m;
        m.neighbour = f.neighbour, m.count = f.count;
        m.send_tag = message_tag(towards, f.level());
        m.recv_tag = message_tag(opposite(towards), f.level());
        for (std::size_t a = 0; a < 2; ++a) {
            const std::size_t p = std::min(a, array_origins_.size() - 1),
                              q = array_origins_.size() - 1 - p;
            const FieldView<T> field = view_at(array_origins_[p]),
                               previous = view_at(array_origins_[q]);
            m.send[a] = send_source(f, field, previous);
            m.recv[a] = recv_target(f, field, previous);
        }
        messages.push_back(m);
        order.push_back({opposite(towards), f.level()});
    }
    // Each neighbour's block after its in-place messages, on both sides.
    for (const NeighbourBlock& b : neighbour_blocks_) {
        PathMessage<T> m;
        m.neighbour = b.neighbour, m.count = b.count;
        m.send_tag = m.recv_tag = kNeighbourBlockTag;
        m.send = {b.send[0], b.send[1]};
        m.recv = {b.recv, b.recv};
        messages.push_back(m);
        order.push_back({kDirections, 0});
    }
    // Receives by opposite direction, then level: the order a neighbour's sends
    // arrive in, which a path without tags matches by.
    std::vector<std::size_t> receive_order(messages.size());
    for (std::size_t n = 0; n < receive_order.size(); ++n)
        receive_order[n] = n;
    std::stable_sort(receive_order.begin(), receive_order.end(),
                     [&](std::size_t a, std::size_t b) { return order[a][0] < order[b][0]; });
    path_ = make_halo_path<T>(mode_, messages, receive_order, d.cart.get());
}

template <class T>
std::size_t HaloExchange<T>::matching(const Face& f) const {
    for (std::size_t o = 0; o < faces_.size(); ++o)
        if (direction_index(faces_[o].dir) == opposite(direction_index(f.dir)) &&
            faces_[o].level() == f.level())
            return o;
    fatal("a halo message without its opposite");
}

template <class T>
const T* HaloExchange<T>::send_source(const Face& f, FieldView<T> field,
                                      FieldView<T> previous) const {
    const T* origin = (f.level() == 0 ? field : previous).origin;
    if (f.in_place) return origin + layout_.slice * std::size_t(f.parts[0].send.z0);
    return fused_ && !f.self ? f.send_by_array[array_of(field.origin)] : f.send_device;
}

template <class T>
T* HaloExchange<T>::recv_target(const Face& f, FieldView<T> field, FieldView<T> previous) const {
    T* origin = (f.level() == 0 ? field : previous).origin;
    return f.in_place ? origin + layout_.slice * std::size_t(f.parts[0].recv.z0) : f.recv_device;
}

template <class T>
HaloExchange<T>::~HaloExchange() = default;

template <class T>
void HaloExchange<T>::begin(FieldView<T> field, FieldView<T> previous, int slot) {
    (void)previous;
    slot_ = slot;
    timers_[slot_].post_ms = timers_[slot_].wait_ms = 0;
    if (!moves_data()) return;
    array_ = array_of(field.origin);
}

template <class T>
void HaloExchange<T>::pack(FieldView<T> field, FieldView<T> previous, bool timed) {
    if (!moves_data()) return;
    SlotTimers& t = timers_[slot_];
    if (timed) t.pack_start.record(stream_);
    // Fused: the last boundary update packed; only the event MPI waits for.
    if (pack_table_[0].count) launch_pack_faces<T>(field, pack_table_[0], stream_);
    if (pack_table_[1].count) launch_pack_faces<T>(previous, pack_table_[1], stream_);
    if (path_) path_->after_pack(array_, stream_);
    if (timed || host_between()) t.pack_done.record(stream_);
}

template <class T>
void HaloExchange<T>::post() {
    if (!moves_data()) return;
    const double start = wall_clock_ms();
    if (path_) path_->post(array_, stream_, timers_[slot_].pack_done);
    timers_[slot_].post_ms = wall_clock_ms() - start;
}

template <class T>
void HaloExchange<T>::wait() {
    if (!host_between()) return;
    const double start = wall_clock_ms();
    path_->wait();
    timers_[slot_].wait_ms = wall_clock_ms() - start;
}

template <class T>
void HaloExchange<T>::unpack(FieldView<T> field, FieldView<T> previous, bool timed) {
    if (!moves_data()) return;
    SlotTimers& t = timers_[slot_];
    if (timed) t.unpack_start.record(stream_);
    for (const Face& f : faces_) {
        if (f.self && f.in_place && !fused_) // whole planes: from the other side's owned planes
            copy_async(recv_target(f, field, previous),
                       send_source(faces_[std::size_t(f.opposite)], field, previous),
                       f.count * sizeof(T), stream_);
    }
    if (path_) path_->before_unpack(array_, stream_);
    if (unpack_table_[0].count) launch_unpack_faces<T>(field, unpack_table_[0], stream_);
    if (unpack_table_[1].count) launch_unpack_faces<T>(previous, unpack_table_[1], stream_);
    if (timed) t.unpack_done.record(stream_);
}

template <class T>
HaloPhaseTimes HaloExchange<T>::times(int slot) const {
    HaloPhaseTimes h;
    if (!moves_data()) return h;
    const SlotTimers& t = timers_[slot];
    h.pack = elapsed_ms(t.pack_start, t.pack_done);
    h.post = t.post_ms;
    // A stream-ordered path's transfers run on the halo stream between the
    // pack and the unpack.
    h.wait = host_between() ? t.wait_ms : elapsed_ms(t.pack_done, t.unpack_start);
    h.unpack = elapsed_ms(t.unpack_start, t.unpack_done);
    return h;
}

// The class for both precisions, with the members defined here;
// fused_pack.cpp instantiates its own members one by one.
template class HaloExchange<float>;
template class HaloExchange<double>;

} // namespace stencil
