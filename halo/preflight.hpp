// --preflight: before the run, prove the halo path works on this machine.
//
// Each rank sends a face-sized buffer with a pattern of its own to every
// neighbour, which returns what it received; the sender checks that the
// pattern came back intact. It does this with device buffers handed to MPI
// (only when the library is GPU-aware: otherwise MPI could crash on them),
// and staged through pinned host memory, and times a round trip of each.
#pragma once

#include "decomposition.hpp"
#include "gpu_aware.hpp"

#include <string>

namespace stencil {

struct PreflightResult {
    bool ok = true;
    std::string report; // the table, on rank 0 only
};

// Collective over d.cart. `floats` is the message size (a face's).
PreflightResult run_preflight(const Decomposition& d, const GpuAwareness& aware,
                              std::size_t floats);

} // namespace stencil
