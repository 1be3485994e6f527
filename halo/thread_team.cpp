#include "thread_team.hpp"

#include "gpu_runtime.hpp"
#include "mpi_util.hpp"

#include <sched.h>

#include <algorithm>
#include <cstdlib>
#include <vector>

#if !STENCIL_HAS_GPU
#include <omp.h>
#endif

namespace stencil {
namespace {

#if !STENCIL_HAS_GPU // the GPU back-ends leave the team to the OpenMP runtime
std::string plural(int n, const char* word) {
    return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

// The ranks of this node whose affinity masks share a core with this
// rank's (itself included), and the cores of all their masks together.
struct NodeShare {
    int cores = 1;      // in this rank's mask
    int sharing = 1;    // ranks of the node whose masks overlap it
    int ranks = 1;      // ranks on the node
    int node_cores = 1; // in the union of the node's masks
    MPI_Comm node = MPI_COMM_NULL;
};

NodeShare share_of_node(MPI_Comm comm, Communicator& owned) {
    NodeShare s;
    MPI_CHECK(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &s.node));
    owned = Communicator(s.node);
    MPI_CHECK(MPI_Comm_size(s.node, &s.ranks));
    cpu_set_t mine;
    CPU_ZERO(&mine);
    if (sched_getaffinity(0, sizeof mine, &mine) != 0) CPU_SET(0, &mine);
    std::vector<cpu_set_t> all(s.ranks);
    MPI_CHECK(
        MPI_Allgather(&mine, sizeof mine, MPI_BYTE, all.data(), sizeof mine, MPI_BYTE, s.node));
    cpu_set_t every = mine, common;
    s.sharing = 0;
    for (cpu_set_t& other : all) {
        CPU_OR(&every, &every, &other);
        CPU_AND(&common, &mine, &other);
        s.sharing += CPU_COUNT(&common) > 0;
    }
    s.cores = std::max(1, CPU_COUNT(&mine));
    s.node_cores = std::max(1, CPU_COUNT(&every));
    return s;
}

// One line when the node's ranks run more threads than it has cores and
// teams of more than one thread are why (ranks alone on too few cores are
// what the user launched, and the report says so); the first such node's
// words, for rank 0 to print.
std::string oversubscription(const NodeShare& s, const ThreadTeam& team, MPI_Comm comm) {
    int total = 0;
    MPI_CHECK(MPI_Allreduce(&team.threads, &total, 1, MPI_INT, MPI_SUM, s.node));
    std::string line;
    if (total > s.node_cores && team.threads > 1)
        line = plural(s.ranks, "rank") + " x " + plural(team.threads, "OpenMP thread") +
               " on a node exceed the " + plural(s.node_cores, "core") +
               " its ranks' affinity masks allow (" + team.reason +
               "): the threads take turns and the run slows; lower OMP_NUM_THREADS, or unset it "
               "to share the cores among the ranks";
    return first_problem(comm, line);
}

// OpenMP's form: "4", or "4,2" for nested levels; each from 1. The largest
// count of such a list, or 0 where `text` is not one.
int largest_thread_count(const std::string& text) {
    int largest = 0;
    for (std::size_t start = 0;;) {
        const std::size_t comma = text.find(',', start);
        const std::string part = text.substr(start, comma - start);
        if (part.empty() || part.size() > 6 || part.find_first_not_of("0123456789") != part.npos ||
            std::stoi(part) < 1)
            return 0;
        largest = std::max(largest, std::stoi(part));
        if (comma == std::string::npos) return largest;
        start = comma + 1;
    }
}

// The most threads a rank's team may ask for: beyond it the runtime fails
// to make them (OMP_NUM_THREADS=99999 ended in SIGSEGV), and a count that
// large is a typing slip.
int most_threads(int cores) {
    return std::max(256, 16 * cores);
}

// The team a parallel region really forms, counted inside one: what the
// report states is what the runtime did, not what it was asked.
int formed_team_size() {
    int formed = 0;
#pragma omp parallel
    {
#pragma omp single
        formed = omp_get_num_threads();
    }
    return formed;
}
#endif

} // namespace

ThreadTeam size_thread_team(MPI_Comm comm) {
    ThreadTeam team;
#if STENCIL_HAS_GPU
    (void)comm;
    team.reason = "GPU back-end: left to the OpenMP runtime, the host threads only drive the GPU";
#else
    Communicator owned;
    const NodeShare s = share_of_node(comm, owned);
    const char* env = std::getenv("OMP_NUM_THREADS");
    const int asked = env && *env ? largest_thread_count(env) : -1; // 0: not a count
    std::string problem;
    if (asked == 0) {
        // The runtime warns of a value that is not a count and goes on with
        // its own (libgomp: every core per rank, 1000x slower oversubscribed).
        problem = std::string("OMP_NUM_THREADS=") + env +
                  " is not a thread count (a whole number from 1, or a list of them); set one, "
                  "or unset it to share the cores among the ranks";
        omp_set_num_threads(1);
    } else if (asked > most_threads(s.cores)) {
        problem = std::string("OMP_NUM_THREADS=") + env + " asks for more than " +
                  std::to_string(most_threads(s.cores)) + " threads per rank (16 per core of the " +
                  plural(s.cores, "core") + " this rank may use); set a count near the cores";
        omp_set_num_threads(1);
    } else if (env && *env) {
        team.reason = std::string("OMP_NUM_THREADS=") + env;
    } else {
        // Set but empty, the runtime warned of it before main and ignored it.
        team.reason = std::string(env ? "OMP_NUM_THREADS empty, so as if unset: " : "") +
                      plural(s.cores, "core") + " in the affinity mask / " +
                      plural(s.sharing, "rank") + " on the node sharing it";
        omp_set_num_threads(std::max(1, s.cores / s.sharing));
    }
    team.threads = formed_team_size();
    // One count for every rank, as the report gives one: an MPMD launch can
    // give each part its own OMP_NUM_THREADS.
    int range[2] = {team.threads, -team.threads};
    MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, range, 2, MPI_INT, MPI_MIN, comm));
    if (problem.empty() && range[0] != -range[1])
        problem = "the ranks run OpenMP teams of " + std::to_string(range[0]) + " to " +
                  std::to_string(-range[1]) +
                  " threads (OMP_NUM_THREADS or their cores differ), and the report gives one "
                  "count for all; set OMP_NUM_THREADS alike on every rank";
    team.warning = oversubscription(s, team, comm);
    team.problem = first_problem(comm, problem); // every rank stops alike
#endif
    return team;
}

} // namespace stencil
