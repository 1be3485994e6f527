// The 3D Cartesian decomposition of the global grid over the ranks.
#pragma once

#include "box.hpp"
#include "mpi_util.hpp"

#include <array>
#include <string>

namespace stencil {

enum Side { Low = 0, High = 1 };

// Which axes wrap around (--periodic): past the last plane is the first.
using Periodic = std::array<bool, 3>;

// The 27 directions of a box's neighbourhood, the box itself included: each
// component -1, 0 or 1, numbered x fastest.
inline constexpr int kDirections = 27;
inline int direction_index(const std::array<int, 3>& dir) {
    return (dir[0] + 1) + 3 * (dir[1] + 1) + 9 * (dir[2] + 1);
}
inline std::array<int, 3> direction_of(int index) {
    return {index % 3 - 1, index / 3 % 3 - 1, index / 9 - 1};
}

struct Decomposition {
    Communicator cart;         // the Cartesian communicator
    int rank = 0, size = 1;    // in `cart`
    std::array<int, 3> dims{}; // PX, PY, PZ
    std::array<int, 3> coords{};
    std::array<int, 3> global{}; // global interior cells
    std::array<int, 3> local{};  // this rank's interior cells
    std::array<int, 3> offset{}; // global index of this rank's first interior cell
    int neighbour[3][2]{};       // rank in `cart`, or MPI_PROC_NULL at a physical boundary
    Periodic periodic{};         // along a periodic axis every side has a neighbour, this
                                 // rank itself where it is alone along the axis

    // The rank across each face, edge and corner of this rank's box, by
    // direction (each component -1, 0 or 1), or MPI_PROC_NULL past a
    // physical boundary: deep halos (halo depth k > 1) need the edges and
    // corners, which a step with a star stencil never reads.
    int diagonal[kDirections]{};

    bool has_neighbour(int axis, Side side) const { return neighbour[axis][side] != MPI_PROC_NULL; }
    int neighbour_towards(const std::array<int, 3>& dir) const {
        return diagonal[direction_index(dir)];
    }
};

// Cells of the piece `coord` of `n` cells split over `parts` ranks: the
// remainder goes one cell each to the first ranks.
int piece_size(int n, int parts, int coord);
int piece_offset(int n, int parts, int coord);

// Empty when `global` split over `dims` leaves every rank at least `halo`
// cells along each split or periodic direction (a neighbour's halo, or this
// rank's own wrapped one, is that many cells of it); otherwise one line
// saying what is wrong. `halo_name` says what the halo is ("the radius
// R=4", "the halo depth 3*R=12").
std::string check_split(const std::array<int, 3>& global, const std::array<int, 3>& dims, int halo,
                        const Periodic& periodic = {}, const std::string& halo_name = {});

// Builds the decomposition over `comm`. `procs` all zero: MPI_Dims_create
// chooses. The caller has validated the inputs with check_split.
Decomposition decompose(MPI_Comm comm, const std::array<int, 3>& global, std::array<int, 3> procs,
                        const Periodic& periodic = {});

// The process grid decompose() would use.
std::array<int, 3> process_grid(int ranks, std::array<int, 3> procs);

} // namespace stencil
