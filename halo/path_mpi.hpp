// The MPI halo paths (halo_path.hpp): GPU-aware, or staged through pinned
// host memory.
#pragma once

#include "halo_path.hpp"
#include "memory.hpp"
#include "mpi_util.hpp"

#include <vector>

namespace stencil {

template <class T>
class MpiPath final : public HaloPath<T> {
public:
    // `staged`: through pinned host buffers, one per message and direction.
    MpiPath(const std::vector<PathMessage<T>>& messages, MPI_Comm comm, bool staged);

    bool host_between() const override { return true; }
    void after_pack(int array, Stream& halo) override;
    void post(int array, Stream& halo, Event& packed) override;
    void wait() override;
    void before_unpack(int array, Stream& halo) override;

private:
    std::vector<PathMessage<T>> staged_from_; // staged: where the copies come from and go
    std::vector<PinnedArray<T>> pinned_;   // staged: message n's send copy at 2n, receive at 2n+1
    PersistentRequests requests_[2];       // by the array that is p(t_n)
    PersistentRequests* active_ = nullptr; // the set of the step in flight
};

} // namespace stencil
