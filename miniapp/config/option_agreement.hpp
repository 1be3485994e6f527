// Every rank of the job must be given the same options: an MPMD launch
// (`mpirun -np 1 app --steps 12 : -np 1 app --steps 10`) gave ranks their
// own, and they hung in a collective one rank never reached, or computed
// different fields and exited 0 with a checksum of neither problem.
#pragma once

#include <string>

namespace stencil {

// Collective over MPI_COMM_WORLD, before anything else: a CRC-32 of each
// rank's arguments (argv[1..]) compared across the ranks. "" where they
// agree, else one line naming the first option that differs and the ranks
// that differ in it, every rank alike.
std::string options_differ_across_ranks(int argc, char** argv);

} // namespace stencil
