// How many OpenMP threads each HOST rank runs, and why. Where the user set
// OMP_NUM_THREADS, that; otherwise the cores in the rank's affinity mask
// divided among the ranks on its node that share them, at least one: four
// ranks started by hand on two cores, each with an OpenMP team of every
// core, ran 20-36x slower than with one thread each.
#pragma once

#include <mpi.h>

#include <string>

namespace stencil {

struct ThreadTeam {
    int threads = 0;     // OpenMP threads per rank (0: the GPU back-ends leave it to OpenMP)
    std::string reason;  // "OMP_NUM_THREADS=2", "2 cores in the affinity mask / 4 ranks ..."
    std::string warning; // "" or one line: ranks x threads (> 1) exceed a node's cores
    std::string problem; // "" or why the run cannot go on: an OMP_NUM_THREADS that is no count
};

// Collective over `comm`; call after MPI_Init, before any OpenMP parallel
// region: sets the team with omp_set_num_threads on the HOST back-end and
// reports the team a parallel region then forms.
ThreadTeam size_thread_team(MPI_Comm comm);

} // namespace stencil
