// Before the first allocation: do the run's arrays fit? A run whose fields
// outgrow the node is otherwise killed by the kernel's OOM killer part way
// through (exit 137, no line from the program), or fails on every rank at
// once with a line each.
#pragma once

#include "binding.hpp"
#include "config/options.hpp"
#include "config/run_plan.hpp"

#include <array>
#include <cstdint>
#include <string>

namespace stencil {

// A lower bound of what one rank allocates, in bytes: the three fields of
// its largest box with their halo; on rank 0 the gathered traces of every
// receiver, and with --check the one-domain run and the two gathered
// fields it compares. plan.receivers must be filled (prepare_outputs);
// the halo depth is --halo-depth's (auto tries 1 first).
struct MemoryNeed {
    std::uint64_t device = 0; // GPU memory (0 on the HOST back-end, whose fields are host memory)
    std::uint64_t host = 0;
};
MemoryNeed estimate_memory(const Options& c, const RunPlan& plan, int rank);

// Collective: sums the needs of the ranks that share a node's host memory,
// and of those that share a GPU, against MemAvailable and the runtime's
// free device memory. "" or one line naming both numbers.
std::string check_memory(const Options& c, const RunPlan& plan, const Binding& binding);

} // namespace stencil
