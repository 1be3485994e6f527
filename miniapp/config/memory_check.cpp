#include "config/memory_check.hpp"

#include "memory.hpp"
#include "mpi_util.hpp"
#include "precision.hpp"

#include <algorithm>
#include <cstdio>

namespace stencil {
namespace {

std::uint64_t padded_cells(const std::array<int, 3>& extents, int halo) {
    std::uint64_t cells = 1;
    for (const int n : extents)
        cells *= std::uint64_t(n) + 2 * std::uint64_t(halo);
    return cells;
}

std::string gib(std::uint64_t bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f GiB", bytes / 1073741824.0);
    return text;
}

// Sums `need` over the ranks of `comm`; the lowest of them compares it with
// `available` and says what does not fit.
std::string fits(MPI_Comm comm, std::uint64_t need, std::uint64_t available,
                 const std::string& what) {
    unsigned long long mine = need, sum = 0;
    MPI_CHECK(MPI_Allreduce(&mine, &sum, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, comm));
    int rank = 0, size = 1;
    MPI_CHECK(MPI_Comm_rank(comm, &rank));
    MPI_CHECK(MPI_Comm_size(comm, &size));
    if (rank != 0 || available == 0 || sum <= available) return {};
    return "the run needs at least " + gib(sum) + " of " + what + " (" + std::to_string(size) +
           " rank" + (size == 1 ? "" : "s") + " there), and " + gib(available) +
           " is available; use more nodes or GPUs, or a smaller grid";
}

} // namespace

MemoryNeed estimate_memory(const Options& c, const RunPlan& plan, int rank) {
    const std::array<int, 3>& grid = plan.grid;
    const std::uint64_t element = element_bytes(c.precision);
    std::array<int, 3> largest{};
    for (int a = 0; a < 3; ++a)
        largest[a] = (grid[a] + plan.procs[a] - 1) / plan.procs[a];
    const int depth = std::max(c.halo_depth, 1); // auto tries 1 first
    std::uint64_t fields = 3 * padded_cells(largest, depth * c.radius) * element;
    std::uint64_t host = 0;
    // Rank 0 gathers every receiver's trace, in double, before writing it.
    const std::uint64_t receivers = plan.receivers.size() + (c.line_axis == 2 ? grid[0] : 0);
    if (rank == 0) host += receivers * std::uint64_t(c.steps) * sizeof(double);
    if (c.check && rank == 0) {
        fields += 3 * padded_cells(grid, c.radius) * element;
        host += 2 * padded_cells(grid, 0) * sizeof(double);
    }
    MemoryNeed need;
    (STENCIL_HAS_GPU ? need.device : need.host) += fields;
    need.host += host;
    return need;
}

std::string check_memory(const Options& c, const RunPlan& plan, const Binding& binding) {
    const MemoryNeed need = estimate_memory(c, plan, world_rank());
    MPI_Comm node = MPI_COMM_NULL, gpu = MPI_COMM_NULL;
    MPI_CHECK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
    const Communicator owned_node(node);
    std::string problem = fits(node, need.host, detail::host_available_bytes(),
                               "host memory on node " + binding.host);
    if (STENCIL_HAS_GPU) {
        MPI_CHECK(MPI_Comm_split(node, binding.device, 0, &gpu));
        const Communicator owned_gpu(gpu);
        const std::string why = fits(gpu, need.device, binding.info.free_bytes,
                                     "free memory on GPU " + std::to_string(binding.device) +
                                         " of node " + binding.host);
        if (problem.empty()) problem = why;
    }
    return first_problem(MPI_COMM_WORLD, problem);
}

} // namespace stencil
