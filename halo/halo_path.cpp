// Which type carries a --comm choice's messages (halo_path.hpp).
#include "halo_path.hpp"

#include "fatal.hpp"
#include "path_mpi.hpp"

namespace stencil {

// path_nccl.cpp
template <class T>
std::unique_ptr<HaloPath<T>> make_nccl_path(const std::vector<PathMessage<T>>& messages,
                                            const std::vector<std::size_t>& receive_order,
                                            MPI_Comm comm);

template <class T>
std::unique_ptr<HaloPath<T>>
make_halo_path(CommMode mode, const std::vector<PathMessage<T>>& messages,
               const std::vector<std::size_t>& receive_order, MPI_Comm comm) {
    switch (mode) {
    case CommMode::GpuAware:
        return std::make_unique<MpiPath<T>>(messages, comm, false);
    case CommMode::Staged:
        return std::make_unique<MpiPath<T>>(messages, comm, true);
    case CommMode::Nccl:
        return make_nccl_path<T>(messages, receive_order, comm);
    case CommMode::None:
        break;
    }
    fatal("no halo path moves the messages of --comm none");
}

template std::unique_ptr<HaloPath<float>> make_halo_path(CommMode,
                                                         const std::vector<PathMessage<float>>&,
                                                         const std::vector<std::size_t>&, MPI_Comm);
template std::unique_ptr<HaloPath<double>> make_halo_path(CommMode,
                                                          const std::vector<PathMessage<double>>&,
                                                          const std::vector<std::size_t>&,
                                                          MPI_Comm);

} // namespace stencil
