#include "halo_exchange.hpp"

#include "field_ops.hpp"
#include "nccl_comm.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdlib>

namespace stencil {

template <class T>
HaloExchange<T>::HaloExchange(const Decomposition& d, const Layout& layout, int radius, int depth,
                              CommMode mode, const std::vector<T*>& arrays, Stream& halo_stream,
                              bool fuse_pack)
    : mode_(mode), layout_(layout), stream_(halo_stream) {
    for (T* base : arrays)
        array_origins_.push_back(view_of(base, layout).origin);
    plan_faces(d, radius, depth);
    // Staged copies each face to pinned memory after a pack: only a rank
    // that sends nothing to others skips it.
    fused_ = fuse_pack && depth == 1 && !idle() && arrays.size() == 2 &&
             (mode != CommMode::Staged || self_faces_ == faces());
    allocate_buffers();
    build_face_tables();
    if (fused_) build_fused_tables();
    order_receives_for_nccl();
    if (mode == CommMode::Nccl) {
#if STENCIL_HAVE_NCCL
        nccl_ = std::make_unique<NcclComm>(d.cart.get());
#else
        fatal("--comm nccl: this build has no NCCL/RCCL");
#endif
    }
    if (mode == CommMode::GpuAware || mode == CommMode::Staged)
        for (std::size_t a = 0; a < arrays.size(); ++a)
            make_requests(d, arrays[a], arrays[arrays.size() - 1 - a]);
}

template <class T>
void HaloExchange<T>::plan_faces(const Decomposition& d, int radius, int depth) {
    for (const HaloMessage& m : plan_halo_messages(d, layout_, radius, depth)) {
        largest_ = std::max(largest_, m.count);
        if (mode_ == CommMode::None) continue; // sizes only
        if (m.count > std::size_t(INT_MAX))
            fatal("a halo message of " + std::to_string(m.count) +
                  " cells exceeds MPI's int count");
        faces_.push_back(Face{m});
        self_faces_ += m.self;
    }
}

template <class T>
void HaloExchange<T>::allocate_buffers() {
    auto device_buffer = [&](std::size_t count) {
        device_buffers_.emplace_back(count);
        return device_buffers_.back().data();
    };
    for (Face& f : faces_) {
        if (!f.in_place) {
            // The fused pack writes step n+1's faces while step n's may
            // still be in flight: two send buffers, one per time-level array.
            if (fused_ && !f.self)
                for (T*& send : f.send_by_array)
                    send = device_buffer(f.count);
            else
                f.send_device = device_buffer(f.count);
            if (!f.self) f.recv_device = device_buffer(f.count);
        }
        if (mode_ == CommMode::Staged && !f.self) {
            pinned_buffers_.emplace_back(f.count);
            f.send_host = pinned_buffers_.back().data();
            pinned_buffers_.emplace_back(f.count);
            f.recv_host = pinned_buffers_.back().data();
        }
        bytes_ += 2 * f.count * sizeof(T);
    }
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
void HaloExchange<T>::order_receives_for_nccl() {
    for (std::size_t f = 0; f < faces_.size(); ++f)
        recv_order_.push_back(f);
    std::stable_sort(recv_order_.begin(), recv_order_.end(), [&](std::size_t a, std::size_t b) {
        return opposite(direction_index(faces_[a].dir)) < opposite(direction_index(faces_[b].dir));
    });
}

template <class T>
void HaloExchange<T>::make_requests(const Decomposition& d, T* field_base, T* previous_base) {
    // One request set per time-level array as p(t_n) (the other is then
    // p(t_n-1)), since in-place faces live in the arrays. The message
    // received from the neighbour at dir was sent towards -dir.
    const FieldView<T> field = view_of(field_base, layout_),
                       previous = view_of(previous_base, layout_);
    origins_.push_back(field.origin);
    PersistentRequests set;
    for (const Face& f : faces_) {
        if (f.self) continue;
        const int count = int(f.count), towards = direction_index(f.dir);
        const void* send =
            mode_ == CommMode::Staged ? f.send_host : send_source(f, field, previous);
        void* recv = mode_ == CommMode::Staged ? f.recv_host : recv_target(f, field, previous);
        set.add_recv(recv, count, mpi_datatype<T>(), f.peer,
                     message_tag(opposite(towards), f.level()), d.cart.get());
        set.add_send(send, count, mpi_datatype<T>(), f.peer, message_tag(towards, f.level()),
                     d.cart.get());
    }
    requests_.push_back(std::move(set));
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
PersistentRequests& HaloExchange<T>::requests_for(const T* origin) {
    for (std::size_t a = 0; a < origins_.size(); ++a)
        if (origins_[a] == origin) return requests_[a];
    fatal("halo exchange asked to work on an array it was not built for");
}

template <class T>
void HaloExchange<T>::begin(FieldView<T> field, FieldView<T> previous, int slot) {
    slot_ = slot;
    timers_[slot_].post_ms = timers_[slot_].wait_ms = 0;
    if (!moves_data()) return;
    if (mode_ == CommMode::Nccl) nccl_field_ = field, nccl_previous_ = previous;
    if (host_between()) active_ = &requests_for(field.origin);
}

template <class T>
void HaloExchange<T>::pack(FieldView<T> field, FieldView<T> previous, bool timed) {
    if (!moves_data()) return;
    SlotTimers& t = timers_[slot_];
    if (timed) t.pack_start.record(stream_);
    // Fused: the last boundary update packed; only the event MPI waits for.
    if (pack_table_[0].count) launch_pack_faces<T>(field, pack_table_[0], stream_);
    if (pack_table_[1].count) launch_pack_faces<T>(previous, pack_table_[1], stream_);
    if (mode_ == CommMode::Staged)
        for (const Face& f : faces_)
            if (!f.self)
                copy_async(f.send_host, send_source(f, field, previous), f.count * sizeof(T),
                           stream_);
    if (timed || host_between()) t.pack_done.record(stream_);
}

template <class T>
void HaloExchange<T>::post() {
    if (!moves_data()) return;
    const double start = wall_clock_ms();
    if (mode_ == CommMode::Nccl) {
#if STENCIL_HAVE_NCCL
        // Stream-ordered after the pack: no host synchronisation. One group,
        // so NCCL pairs every send with its neighbour's receive at once.
        //
        // NCCL has no tags: between two ranks, messages match in the order
        // they are posted. Sends go in message order, by direction and
        // level; what a rank sends towards dir lands in its peer's halo at
        // -dir, so the receives go by opposite direction, then level
        // (recv_order_). That matters where one rank is the neighbour on
        // several sides (itself, or the other of two on a periodic axis),
        // or gets two messages from one side (deep halos' z faces).
        NCCL_CHECK(ncclGroupStart());
        for (const Face& f : faces_)
            if (!f.self)
                NCCL_CHECK(ncclSend(send_source(f, nccl_field_, nccl_previous_), f.count,
                                    nccl_datatype<T>(), f.peer, nccl_->get(), stream_.handle()));
        for (const std::size_t r : recv_order_) {
            const Face& f = faces_[r];
            if (!f.self)
                NCCL_CHECK(ncclRecv(recv_target(f, nccl_field_, nccl_previous_), f.count,
                                    nccl_datatype<T>(), f.peer, nccl_->get(), stream_.handle()));
        }
        NCCL_CHECK(ncclGroupEnd());
#endif
    } else if (active_ && !active_->empty()) {
        // MPI knows nothing of streams: the packed data must be in place.
        timers_[slot_].pack_done.synchronize();
        active_->start_all();
    }
    timers_[slot_].post_ms = wall_clock_ms() - start;
}

template <class T>
void HaloExchange<T>::wait() {
    if (!active_) return;
    const double start = wall_clock_ms();
    active_->wait_all();
    active_ = nullptr;
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
        else if (mode_ == CommMode::Staged && !f.self)
            copy_async(recv_target(f, field, previous), f.recv_host, f.count * sizeof(T), stream_);
    }
    if (unpack_table_[0].count) launch_unpack_faces<T>(field, unpack_table_[0], stream_);
    if (unpack_table_[1].count) launch_unpack_faces<T>(previous, unpack_table_[1], stream_);
    if (drop_one_face_ && !fused_) drop_first_face(field, previous); // fused: before_boundary()
    if (timed) t.unpack_done.record(stream_);
}

template <class T>
void HaloExchange<T>::drop_first_face(FieldView<T> field, FieldView<T> previous) {
    // A face's first part: every depth reads all of it.
    for (const Face& f : faces_)
        if (std::abs(f.dir[0]) + std::abs(f.dir[1]) + std::abs(f.dir[2]) == 1) {
            launch_fill(f.level() == 0 ? field : previous, f.parts[0].recv, T(0), stream_);
            return;
        }
}

template <class T>
void HaloExchange<T>::poison_halo(FieldView<T> field, FieldView<T> previous) {
    if (!moves_data()) return; // nothing is received, and nothing would wait for the fill
    if (received_[0].count) launch_fill_faces(field, received_[0], T(std::nan("")), stream_);
    if (received_[1].count) launch_fill_faces(previous, received_[1], T(std::nan("")), stream_);
}

template <class T>
HaloPhaseTimes HaloExchange<T>::times(int slot) const {
    HaloPhaseTimes h;
    if (!moves_data()) return h;
    const SlotTimers& t = timers_[slot];
    h.pack = elapsed_ms(t.pack_start, t.pack_done);
    h.post = t.post_ms;
    // NCCL's transfers run on the halo stream between the pack and the unpack.
    h.wait = mode_ == CommMode::Nccl ? elapsed_ms(t.pack_done, t.unpack_start) : t.wait_ms;
    h.unpack = elapsed_ms(t.unpack_start, t.unpack_done);
    return h;
}

// The members defined here; fused_pack.cpp instantiates its own.
template class HaloExchange<float>;
template class HaloExchange<double>;

} // namespace stencil
