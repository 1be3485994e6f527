#include "config/run_plan.hpp"

#include "decomposition.hpp"
#include "halo_path.hpp"

#include <cstdio>

namespace stencil {

namespace {

// What the program can index: an axis of the padded box in an int, and
// every count of cells (and of bytes, up to 8 per cell for each of a few
// arrays) in 64 bits with room to spare. 2^56 cells of FP32 are 288 PB.
constexpr long long kMaxAxisCells = 1LL << 30;
constexpr long double kMaxGridCells = 72057594037927936.0L; // 2^56

// "" or why `grid` (global cells per axis; --local times --procs, computed
// in 64 bits) is more than the program can index.
std::string size_problem(const std::array<long long, 3>& grid) {
    const char* axes = "xyz";
    long double cells = 1;
    for (int a = 0; a < 3; ++a) {
        if (grid[a] > kMaxAxisCells)
            return std::to_string(grid[a]) + " cells along " + axes[a] + " are more than the " +
                   std::to_string(kMaxAxisCells) + " one axis may hold";
        cells *= (long double)grid[a];
    }
    if (cells > kMaxGridCells) {
        char text[160];
        std::snprintf(text, sizeof text,
                      "the grid holds %.3Lg cells, more than the 2^56 (%.3Lg) this program can "
                      "count; make it smaller",
                      cells, kMaxGridCells);
        return text;
    }
    return {};
}

// "" or why the options leave --comm peer nothing it can do: the update
// kernels store the faces every step (the fused pack, halo depth 1).
std::string peer_problem(const Options& o) {
    if (o.pack == PackChoice::Separate) return "--pack separate";
    if (o.halo_depth > 1) return "--halo-depth " + std::to_string(o.halo_depth);
    return {};
}

} // namespace

std::string plan_grids(const Options& o, int ranks, RunPlan& plan) {
    const bool given = o.procs[0] > 0;
    if (given && o.procs[0] * o.procs[1] * o.procs[2] != ranks)
        return "--procs " + std::to_string(o.procs[0]) + "," + std::to_string(o.procs[1]) + "," +
               std::to_string(o.procs[2]) + " makes " +
               std::to_string(o.procs[0] * o.procs[1] * o.procs[2]) + " ranks, but the job has " +
               std::to_string(ranks);
    plan.procs = process_grid(ranks, o.procs);
    std::array<long long, 3> wide{o.grid[0], o.grid[1], o.grid[2]};
    if (o.local[0] > 0)
        for (int a = 0; a < 3; ++a)
            wide[a] = (long long)o.local[a] * plan.procs[a];
    if (const std::string why = size_problem(wide); !why.empty())
        return (o.local[0] > 0 ? "--local times the process grid: " : "--grid: ") + why;
    for (int a = 0; a < 3; ++a)
        plan.grid[a] = int(wide[a]);
    if (const std::string why = check_split(plan.grid, plan.procs, o.radius, o.periodic);
        !why.empty())
        return why;
    // A chosen depth must fit every rank: its neighbours' halos are k*R of it.
    const int k = o.halo_depth;
    if (k > 1)
        return check_split(plan.grid, plan.procs, k * o.radius, o.periodic,
                           "the halo depth " + std::to_string(k) +
                               "*R=" + std::to_string(k * o.radius));
    return {};
}

std::string plan_comm(const Options& o, const GpuAwareness& aware, const PeerReach& reach,
                      RunPlan& plan) {
    const CommChoice choice = o.comm;
    const std::string peer_stops = peer_problem(o);
    plan.one_node = reach.one_node;
    if (!choice.automatic) {
        const PathRequest asked = request_path(choice.mode, aware);
        if (!asked.problem.empty()) return asked.problem;
        const std::string name = std::string("--comm ") + comm_mode_name(choice.mode);
        RoutePlan routes = route_plan(o, plan);
        routes.mode = choice.mode;
        if (routes.links_faces() && !peer_stops.empty())
            return name +
                   " stores the faces from the update kernels, every step (the fused pack, halo "
                   "depth 1); " +
                   peer_stops + " leaves no face for it to store";
        if (routes.sends_off_node() && !aware.supported)
            return name + ": faces to other nodes need a GPU-aware MPI (" + aware.reason + ")";
        plan.comm_mode = choice.mode, plan.comm_reason = asked.reason;
        return {};
    }
    // Auto: MPI's path, against which the peer path is timed
    // (step/comm_choice.hpp) where it can run at all.
    const bool aware_mpi = aware.supported;
    RoutePlan linked = route_plan(o, plan);
    linked.mode = CommMode::Peer;
    const std::string why_not =
        !reach.reachable                        ? reach.why
        : linked.ranks() == 1                   ? "one rank: its faces are its own"
        : !peer_stops.empty()                   ? peer_stops + " leaves the update nothing to store"
        : linked.sends_off_node() && !aware_mpi ? "faces to other nodes need a GPU-aware MPI"
                                                : "";
    plan.comm_mode = aware_mpi ? CommMode::GpuAware : CommMode::Staged;
    plan.comm_reason = std::string("auto: ") + (aware_mpi ? "" : "staged, since ") + aware.reason;
    if (why_not.empty())
        plan.peer_trial = "every rank reaches the GPUs of its node";
    else
        plan.comm_reason += "; not peer: " + why_not;
    return {};
}

RoutePlan route_plan(const Options& o, const RunPlan& plan) {
    RoutePlan routes;
    routes.mode = plan.comm_mode, routes.procs = plan.procs, routes.periodic = o.periodic;
    routes.one_node = plan.one_node;
    routes.update_may_store = peer_problem(o).empty(); // the fused pack at depth 1
    return routes;
}

} // namespace stencil
