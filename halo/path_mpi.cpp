// The MPI halo paths: GPU-aware MPI hands the exchange's device buffers
// (and a field's own z planes) to persistent requests; staged MPI copies
// each message through pinned host buffers on the halo stream and hands
// those to MPI, which any MPI library can do.
#include "path_mpi.hpp"

#include "mpi_util.hpp"

#include <utility>

namespace stencil {

template <class T>
MpiPath<T>::MpiPath(const std::vector<PathMessage<T>>& messages, MPI_Comm comm, bool staged) {
    std::vector<PathMessage<T>> seen_by_mpi = messages;
    if (staged) {
        staged_from_ = messages;
        for (PathMessage<T>& m : seen_by_mpi) {
            pinned_.emplace_back(m.count), pinned_.emplace_back(m.count);
            T* send = pinned_[pinned_.size() - 2].data();
            T* recv = pinned_.back().data();
            // MPI sees only the pinned copies, the same for either array.
            m.send = {send, send}, m.recv = {recv, recv};
        }
    }
    // One request set per time-level array as p(t_n).
    for (int array = 0; array < 2; ++array) {
        PersistentRequests set;
        for (const PathMessage<T>& m : seen_by_mpi) {
            set.add_recv(m.recv[array], int(m.count), mpi_datatype<T>(), m.neighbour, m.recv_tag,
                         comm);
            set.add_send(m.send[array], int(m.count), mpi_datatype<T>(), m.neighbour, m.send_tag,
                         comm);
        }
        requests_[array] = std::move(set);
    }
}

template <class T>
void MpiPath<T>::after_pack(int array, Stream& halo) {
    for (std::size_t n = 0; n < staged_from_.size(); ++n)
        copy_async(pinned_[2 * n].data(), staged_from_[n].send[array],
                   staged_from_[n].count * sizeof(T), halo);
}

template <class T>
void MpiPath<T>::post(int array, Stream& halo, Event& packed) {
    (void)halo;
    if (requests_[array].empty()) return;
    // MPI knows nothing of streams: the packed data must be in place.
    packed.synchronize();
    active_ = &requests_[array];
    active_->start_all();
}

template <class T>
void MpiPath<T>::wait() {
    if (active_) active_->wait_all();
    active_ = nullptr;
}

template <class T>
void MpiPath<T>::before_unpack(int array, Stream& halo) {
    for (std::size_t n = 0; n < staged_from_.size(); ++n)
        copy_async(staged_from_[n].recv[array], pinned_[2 * n + 1].data(),
                   staged_from_[n].count * sizeof(T), halo);
}

template class MpiPath<float>;
template class MpiPath<double>;

} // namespace stencil
