// The optional NCCL (CUDA) / RCCL (HIP) communicator for --comm nccl.
//
// Built when CMake finds the library (STENCIL_HAVE_NCCL); RCCL is NCCL's
// AMD twin with the same API. Sends and receives are enqueued on a stream,
// so the halo path needs no host synchronisation between pack and unpack.
#pragma once

#include "gpu_runtime.hpp"
#include "mpi_util.hpp"

#include <type_traits>

#if STENCIL_HAVE_NCCL
#if defined(STENCIL_BACKEND_HIP)
#include <rccl/rccl.h>
#else
#include <nccl.h>
#endif
#endif

namespace stencil {

// True when this build can run --comm nccl.
bool nccl_available();

#if STENCIL_HAVE_NCCL

#define NCCL_CHECK(expr)                                                                           \
    do {                                                                                           \
        const ncclResult_t stencil_nccl_err_ = (expr);                                             \
        if (stencil_nccl_err_ != ncclSuccess)                                                      \
            ::stencil::fatal_check(#expr, __FILE__, __LINE__,                                      \
                                   ncclGetErrorString(stencil_nccl_err_));                         \
    } while (0)

// One NCCL communicator over the ranks of `comm`, with the same rank numbers;
// the unique id travels by MPI_Bcast from rank 0.
class NcclComm {
public:
    explicit NcclComm(MPI_Comm comm);
    ~NcclComm();
    NcclComm(const NcclComm&) = delete;
    NcclComm& operator=(const NcclComm&) = delete;
    ncclComm_t get() const { return comm_; }

private:
    ncclComm_t comm_ = nullptr;
};

// The NCCL type of a field element.
template <class T>
ncclDataType_t nccl_datatype() {
    return std::is_same_v<T, double> ? ncclDouble : ncclFloat;
}

#else

class NcclComm {}; // never constructed: --comm nccl is refused without the library

#endif

} // namespace stencil
