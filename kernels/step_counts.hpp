// Step counts that the ranks of one node raise in each other's memory
// (--comm peer, halo/peer_links.hpp): a rank's update stores its faces
// straight into its neighbours' halos, then raises its count in each of
// them; a neighbour's next boundary update waits, on the device, until
// every count it reads has reached its own. Waiting for the neighbours'
// last step also keeps a fast rank from storing into a halo that its
// neighbour still reads. Both kernels take only pointers and keep the
// count on the device, so a step that launches them replays as one graph.
//
// The counts are 32-bit words in memory every rank of the node maps
// (fine-grained memory on AMD GPUs, host memory shared through an MPI
// window on the HOST back-end), written with system-scope fences: the
// stores before a raise reach the other GPU before the count does.
#pragma once

#include "stream.hpp"

namespace stencil {

inline constexpr int kMaxCountLinks = 6;

struct StepCountLinks {
    int count = 0;                                 // linked neighbours (faces)
    unsigned* own = nullptr;                       // steps this rank has finished, in its memory
    unsigned* raise[kMaxCountLinks] = {};          // this rank's slot in each neighbour's memory
    const unsigned* incoming[kMaxCountLinks] = {}; // each neighbour's slot in this rank's memory

    // Appends a link; false when the table is full.
    bool add(unsigned* remote_slot, const unsigned* local_slot) {
        if (count == kMaxCountLinks) return false;
        raise[count] = remote_slot, incoming[count] = local_slot;
        ++count;
        return true;
    }
};

// On `stream`, after the work before it: *own += 1, then every raise slot
// = *own.
void launch_raise_step_counts(const StepCountLinks& links, Stream& stream);
// Holds `stream` until every incoming slot has reached *own.
void launch_await_step_counts(const StepCountLinks& links, Stream& stream);
// Holds `stream` for at least `microseconds`, so that the work enqueued
// after it starts that much later (a late writer, as a race needs).
void launch_delay(int microseconds, Stream& stream);

} // namespace stencil
