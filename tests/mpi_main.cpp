// GoogleTest main for suites that need MPI (run as one process, or under mpirun).
#include "mpi_util.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

int main(int argc, char** argv) {
    return stencil::run_mpi_program("stencil-tests", argc, argv, [](int argc, char** argv) {
        testing::InitGoogleTest(&argc, argv);
        return RUN_ALL_TESTS();
    });
}
