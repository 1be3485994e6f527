// The routes a run's faces will take, planned from the run's choices before
// any face exists (face_routes.hpp makes the routes themselves): the halo
// path, the process grid, the periodic axes, whether the job is one node,
// and whether the update kernels may store faces. What outside halo/
// depends on the routes (the run's plan, the halo depth, overlap, the
// fields' memory, the report) asks this plan, never the path's name, so
// that a new path changes this file and the routes, not their users.
#pragma once

#include "comm_mode.hpp"

#include <array>

namespace stencil {

struct RoutePlan {
    CommMode mode = CommMode::GpuAware;
    std::array<int, 3> procs{1, 1, 1};
    std::array<bool, 3> periodic{false, false, false};
    bool one_node = true;
    // The update kernels may store the faces: the fused pack at halo depth 1.
    bool update_may_store = true;

    int ranks() const { return procs[0] * procs[1] * procs[2]; }
    // Whether a box has a face with a neighbour: another rank, or itself
    // across a periodic axis.
    bool has_neighbours() const {
        for (int a = 0; a < 3; ++a)
            if (procs[a] > 1 || periodic[a]) return true;
        return false;
    }
    // Whether the path moves nothing between ranks (a timing mode).
    bool moves_nothing() const { return mode == CommMode::None; }
    // Whether faces to ranks on the node are linked (FaceRoute::Linked):
    // the update kernel that computes a face cell stores it into the
    // neighbour's halo, every step, so the update must store faces.
    bool links_faces() const { return links_node(mode); }
    // Whether the ranks of a node keep their fields in memory they share,
    // which the link path maps.
    bool shares_node_memory() const { return links_faces(); }
    // Whether faces leave the node by GPU-aware MPI under a link path.
    bool sends_off_node() const { return links_faces() && !one_node; }
    // Whether every face of every rank is its own or linked, and stored by
    // the update: one kernel a step, and nothing exchanged.
    bool every_face_stored() const {
        return update_may_store && (ranks() == 1 || (links_faces() && one_node));
    }
    // The linked route's name, as the faces' description spells it
    // (FaceRoutes::describe) and the options name its path.
    const char* link_name() const { return comm_mode_name(mode); }
};

} // namespace stencil
