#include "nccl_comm.hpp"

namespace stencil {

bool nccl_available() {
    return STENCIL_HAVE_NCCL != 0;
}

#if STENCIL_HAVE_NCCL

NcclComm::NcclComm(MPI_Comm comm) {
    int rank = 0, size = 1;
    MPI_CHECK(MPI_Comm_rank(comm, &rank));
    MPI_CHECK(MPI_Comm_size(comm, &size));
    ncclUniqueId id;
    if (rank == 0) NCCL_CHECK(ncclGetUniqueId(&id));
    MPI_CHECK(MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, comm));
    NCCL_CHECK(ncclCommInitRank(&comm_, size, id, rank));
}

NcclComm::~NcclComm() {
    if (comm_) (void)ncclCommDestroy(comm_);
}

#endif

} // namespace stencil
