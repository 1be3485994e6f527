// GoogleTest main for suites that need MPI (run as one process, or under mpirun).
#include "mpi_util.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    stencil::install_mpi_fatal_handler();
    testing::InitGoogleTest(&argc, argv);
    const int status = RUN_ALL_TESTS();
    MPI_Finalize();
    return status;
}
