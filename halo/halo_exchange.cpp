#include "halo_exchange.hpp"

#include "field_ops.hpp"
#include "nccl_comm.hpp"

#include <climits>
#include <cmath>

namespace stencil {
namespace {

// The owned (send) and halo (receive) boxes of one face: R cells thick along
// `axis`, the interior range along the other two (a star stencil needs no
// edges or corners).
void face_boxes(const Layout& L, int axis, Side side, Box& send, Box& recv) {
    const int R = L.radius;
    const int n[3] = {L.nx, L.ny, L.nz};
    int lo[3], hi[3], slo[3], shi[3];
    for (int a = 0; a < 3; ++a)
        lo[a] = slo[a] = R, hi[a] = shi[a] = R + n[a];
    if (side == Low) {
        slo[axis] = R, shi[axis] = 2 * R; // first R owned cells
        lo[axis] = 0, hi[axis] = R;       // the halo below them
    } else {
        slo[axis] = n[axis], shi[axis] = n[axis] + R;
        lo[axis] = n[axis] + R, hi[axis] = n[axis] + 2 * R;
    }
    send = {slo[0], shi[0], slo[1], shi[1], slo[2], shi[2]};
    recv = {lo[0], hi[0], lo[1], hi[1], lo[2], hi[2]};
}

} // namespace

std::size_t halo_message_cells(const Layout& L, int axis) {
    const std::size_t R = std::size_t(L.radius);
    switch (axis) {
    case 0:
        return R * L.ny * L.nz;
    case 1:
        return std::size_t(L.nx) * R * L.nz;
    default:
        return R * L.slice;
    }
}

const char* comm_mode_name(CommMode mode) {
    switch (mode) {
    case CommMode::Staged:
        return "staged";
    case CommMode::GpuAware:
        return "gpu-aware";
    case CommMode::Nccl:
        return "nccl";
    case CommMode::None:
        return "none";
    }
    return "?";
}

template <class T>
HaloExchange<T>::HaloExchange(const Decomposition& d, const Layout& layout, CommMode mode,
                              const std::vector<T*>& arrays, Stream& halo_stream)
    : mode_(mode), layout_(layout), stream_(halo_stream) {
    if (mode == CommMode::None) return;
    for (int axis = 0; axis < 3; ++axis)
        for (Side side : {Low, High}) {
            if (!d.has_neighbour(axis, side)) continue;
            Face f{axis, side, d.neighbour[axis][side], {}, {}, 0};
            f.self = f.peer == d.rank;
            face_boxes(layout, axis, side, f.send_box, f.recv_box);
            f.count = halo_message_cells(layout, axis);
            if (f.count > std::size_t(INT_MAX))
                fatal("a halo face of " + std::to_string(f.count) +
                      " cells exceeds MPI's int count");
            if (axis < 2) { // x and y faces are packed
                device_buffers_.emplace_back(f.count);
                f.send_device = device_buffers_.back().data();
                pack_table_.add(f.send_box, f.send_device);
                if (!f.self) {
                    device_buffers_.emplace_back(f.count);
                    f.recv_device = device_buffers_.back().data();
                }
            }
            if (mode == CommMode::Staged && !f.self) {
                pinned_buffers_.emplace_back(f.count);
                f.send_host = pinned_buffers_.back().data();
                pinned_buffers_.emplace_back(f.count);
                f.recv_host = pinned_buffers_.back().data();
            }
            bytes_ += 2 * f.count * sizeof(T);
            self_faces_ += f.self;
            faces_.push_back(f);
            received_.add(f.recv_box, nullptr);
        }
    // A rank that is its own neighbour along an axis (periodic, alone on it)
    // sends nothing to itself: each halo is filled from the face on the
    // other side, packed x and y faces straight from that face's pack
    // buffer by the unpack, z planes by a device copy (unpack()).
    for (Face& f : faces_) {
        if (f.self)
            for (std::size_t o = 0; o < faces_.size(); ++o)
                if (faces_[o].axis == f.axis && faces_[o].side != f.side) f.opposite = int(o);
        if (f.axis < 2)
            unpack_table_.add(f.recv_box,
                              f.self ? faces_[std::size_t(f.opposite)].send_device : f.recv_device);
    }
    if (mode == CommMode::Nccl) {
#if STENCIL_HAVE_NCCL
        nccl_ = std::make_unique<NcclComm>(d.cart.get());
#else
        fatal("--comm nccl: this build has no NCCL/RCCL");
#endif
    }
    // One request set per time-level array; messages travelling towards the
    // low side carry tag 2*axis, towards the high side 2*axis+1.
    for (T* base : arrays) {
        if (mode == CommMode::Nccl) break;
        const FieldView<T> field = view_of(base, layout);
        origins_.push_back(field.origin);
        PersistentRequests set;
        for (const Face& f : faces_) {
            if (f.self) continue;
            const int count = int(f.count);
            const void* send = mode == CommMode::Staged ? f.send_host : send_source(f, field);
            void* recv = mode == CommMode::Staged ? f.recv_host : recv_target(f, field);
            set.add_recv(recv, count, mpi_datatype<T>(), f.peer,
                         2 * f.axis + (f.side == Low ? 1 : 0), d.cart.get());
            set.add_send(send, count, mpi_datatype<T>(), f.peer,
                         2 * f.axis + (f.side == Low ? 0 : 1), d.cart.get());
        }
        requests_.push_back(std::move(set));
    }
}

template <class T>
const T* HaloExchange<T>::send_source(const Face& f, FieldView<T> field) const {
    return f.axis == 2 ? field.origin + layout_.slice * std::size_t(f.send_box.z0) : f.send_device;
}

template <class T>
T* HaloExchange<T>::recv_target(const Face& f, FieldView<T> field) const {
    return f.axis == 2 ? field.origin + layout_.slice * std::size_t(f.recv_box.z0) : f.recv_device;
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
void HaloExchange<T>::begin(FieldView<T> field, int slot) {
    slot_ = slot;
    timers_[slot_].post_ms = timers_[slot_].wait_ms = 0;
    if (idle()) return;
    if (mode_ == CommMode::Nccl) nccl_field_ = field;
    if (host_between()) active_ = &requests_for(field.origin);
}

template <class T>
void HaloExchange<T>::pack(FieldView<T> field, bool timed) {
    if (idle()) return;
    SlotTimers& t = timers_[slot_];
    if (timed) t.pack_start.record(stream_);
    launch_pack_faces<T>(field, pack_table_, stream_);
    if (mode_ == CommMode::Staged)
        for (const Face& f : faces_)
            if (!f.self)
                copy_async(f.send_host, send_source(f, field), f.count * sizeof(T), stream_);
    if (timed || host_between()) t.pack_done.record(stream_);
}

template <class T>
void HaloExchange<T>::post() {
    if (idle()) return;
    const double start = wall_clock_ms();
    if (mode_ == CommMode::Nccl) {
#if STENCIL_HAVE_NCCL
        // Stream-ordered after the pack: no host synchronisation. One group,
        // so NCCL pairs every send with its neighbour's receive at once.
        //
        // NCCL has no tags: between two ranks, messages match in the order
        // they are posted. Sends go per axis low face first; a rank's low
        // face lands in its peer's high halo, so receives go per axis high
        // side first. That matters where both neighbours along an axis are
        // one rank (itself, or the other of two on a periodic axis).
        NCCL_CHECK(ncclGroupStart());
        for (const Face& f : faces_)
            if (!f.self)
                NCCL_CHECK(ncclSend(send_source(f, nccl_field_), f.count, nccl_datatype<T>(),
                                    f.peer, nccl_->get(), stream_.handle()));
        for (int axis = 0; axis < 3; ++axis)
            for (const Side side : {High, Low})
                for (const Face& f : faces_)
                    if (f.axis == axis && f.side == side && !f.self)
                        NCCL_CHECK(ncclRecv(recv_target(f, nccl_field_), f.count,
                                            nccl_datatype<T>(), f.peer, nccl_->get(),
                                            stream_.handle()));
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
void HaloExchange<T>::unpack(FieldView<T> field, bool timed) {
    if (idle()) return;
    SlotTimers& t = timers_[slot_];
    if (timed) t.unpack_start.record(stream_);
    for (const Face& f : faces_) {
        if (f.self && f.axis == 2) // R whole planes: from the other side's owned planes
            copy_async(recv_target(f, field), send_source(faces_[std::size_t(f.opposite)], field),
                       f.count * sizeof(T), stream_);
        else if (mode_ == CommMode::Staged && !f.self)
            copy_async(recv_target(f, field), f.recv_host, f.count * sizeof(T), stream_);
    }
    launch_unpack_faces<T>(field, unpack_table_, stream_);
    if (drop_one_face_) launch_fill(field, faces_.front().recv_box, T(0), stream_);
    if (timed) t.unpack_done.record(stream_);
}

template <class T>
void HaloExchange<T>::poison_halo(FieldView<T> field) {
    if (idle()) return; // nothing is received, and nothing would wait for the fill
    launch_fill_faces(field, received_, T(std::nan("")), stream_);
}

template <class T>
HaloPhaseTimes HaloExchange<T>::times(int slot) const {
    HaloPhaseTimes h;
    if (idle()) return h;
    const SlotTimers& t = timers_[slot];
    h.pack = elapsed_ms(t.pack_start, t.pack_done);
    h.post = t.post_ms;
    // NCCL's transfers run on the halo stream between the pack and the unpack.
    h.wait = mode_ == CommMode::Nccl ? elapsed_ms(t.pack_done, t.unpack_start) : t.wait_ms;
    h.unpack = elapsed_ms(t.unpack_start, t.unpack_done);
    return h;
}

template class HaloExchange<float>;
template class HaloExchange<double>;

} // namespace stencil
