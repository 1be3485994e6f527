// Which GPU each rank drives: the node-local rank modulo the visible devices,
// so that `srun --ntasks-per-node=8` on an 8-GCD node uses every GCD once.
#pragma once

#include "device.hpp"
#include "thread_team.hpp"

#include <mpi.h>

#include <string>

namespace stencil {

struct Binding {
    int local_rank = 0; // among the ranks of this node
    int local_size = 1;
    int device = -1; // -1 on the HOST back-end
    std::string host;
    DeviceInfo info;
    ThreadTeam team; // OpenMP threads per rank and why (size_thread_team)
};

// Selects this rank's device (call after MPI_Init, before any allocation).
Binding bind_to_device(MPI_Comm comm);

// One line per rank, gathered to rank 0 in rank order: rank, host, device, PCI bus id.
std::string binding_table(const Binding& binding, MPI_Comm comm);

} // namespace stencil
