// The NCCL/RCCL halo path (halo_path.hpp): the sends and receives of a step
// enqueued on the halo stream in one group, ordered after the pack, with no
// host synchronisation, so the whole step can be one graph.
#include "halo_path.hpp"

#include "fatal.hpp"
#include "nccl_comm.hpp"

namespace stencil {
namespace {

#if STENCIL_HAVE_NCCL

template <class T>
class NcclPath final : public HaloPath<T> {
public:
    NcclPath(const std::vector<PathMessage<T>>& messages,
             const std::vector<std::size_t>& receive_order, MPI_Comm comm)
        : messages_(messages), receive_order_(receive_order), comm_(comm) {}

    bool host_between() const override { return false; }

    void post(int array, Stream& halo, Event& packed) override {
        (void)packed; // stream-ordered after it
        // One group, so NCCL pairs every send with its neighbour's receive
        // at once. NCCL has no tags: between two ranks, messages match in
        // the order they are posted. Sends go in message order, by direction
        // and level; what a rank sends towards dir lands in its neighbour's halo
        // at -dir, so the receives go by opposite direction, then level
        // (receive_order_). That matters where one rank is the neighbour on
        // several sides (itself, or the other of two on a periodic axis),
        // or gets two messages from one side (deep halos' z faces).
        NCCL_CHECK(ncclGroupStart());
        for (const PathMessage<T>& m : messages_)
            NCCL_CHECK(ncclSend(m.send[array], m.count, nccl_datatype<T>(), m.neighbour,
                                comm_.get(), halo.handle()));
        for (const std::size_t r : receive_order_) {
            const PathMessage<T>& m = messages_[r];
            NCCL_CHECK(ncclRecv(m.recv[array], m.count, nccl_datatype<T>(), m.neighbour,
                                comm_.get(), halo.handle()));
        }
        NCCL_CHECK(ncclGroupEnd());
    }

private:
    std::vector<PathMessage<T>> messages_;
    std::vector<std::size_t> receive_order_;
    NcclComm comm_;
};

#endif

} // namespace

template <class T>
std::unique_ptr<HaloPath<T>> make_nccl_path(const std::vector<PathMessage<T>>& messages,
                                            const std::vector<std::size_t>& receive_order,
                                            MPI_Comm comm) {
#if STENCIL_HAVE_NCCL
    return std::make_unique<NcclPath<T>>(messages, receive_order, comm);
#else
    (void)messages, (void)receive_order, (void)comm;
    fatal("--comm nccl: this build has no NCCL/RCCL");
#endif
}

template std::unique_ptr<HaloPath<float>> make_nccl_path(const std::vector<PathMessage<float>>&,
                                                         const std::vector<std::size_t>&, MPI_Comm);
template std::unique_ptr<HaloPath<double>>
make_nccl_path(const std::vector<PathMessage<double>>&, const std::vector<std::size_t>&, MPI_Comm);

} // namespace stencil
