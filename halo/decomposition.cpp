#include "decomposition.hpp"

namespace stencil {

int piece_size(int n, int parts, int coord) {
    return n / parts + (coord < n % parts ? 1 : 0);
}

int piece_offset(int n, int parts, int coord) {
    const int base = n / parts, extra = n % parts;
    return coord * base + (coord < extra ? coord : extra);
}

std::string check_split(const std::array<int, 3>& global, const std::array<int, 3>& dims, int halo,
                        const Periodic& periodic, const std::string& halo_name) {
    const char* names = "xyz";
    const std::string what = halo_name.empty() ? "the radius R=" + std::to_string(halo) : halo_name;
    for (int a = 0; a < 3; ++a) {
        if (dims[a] < 1)
            return std::string("process grid has ") + std::to_string(dims[a]) + " ranks along " +
                   names[a];
        const int smallest = global[a] / dims[a];
        if (dims[a] > 1 && smallest < halo)
            return std::string("grid too small: ") + std::to_string(global[a]) + " cells along " +
                   names[a] + " split over " + std::to_string(dims[a]) + " ranks leaves " +
                   std::to_string(smallest) + " per rank, fewer than " + what + " (need at least " +
                   std::to_string(halo * dims[a]) + " cells)";
        if (dims[a] == 1 && periodic[a] && smallest < halo)
            return std::string("grid too small: ") + std::to_string(global[a]) + " cells along " +
                   names[a] + ", which is periodic, are fewer than " + what +
                   ": the wrapped halo would overlap itself";
        if (smallest < 1)
            return std::string("grid too small: ") + std::to_string(global[a]) + " cells along " +
                   names[a] + " for " + std::to_string(dims[a]) + " ranks";
    }
    return {};
}

std::array<int, 3> process_grid(int ranks, std::array<int, 3> procs) {
    if (procs[0] == 0 && procs[1] == 0 && procs[2] == 0) {
        // MPI_Dims_create orders dims non-increasing; reverse so that z, the
        // slowest index, gets the most ranks and the faces sent are the
        // contiguous z planes where possible.
        int dims[3] = {0, 0, 0};
        MPI_CHECK(MPI_Dims_create(ranks, 3, dims));
        return {dims[2], dims[1], dims[0]};
    }
    return procs;
}

Decomposition decompose(MPI_Comm comm, const std::array<int, 3>& global, std::array<int, 3> procs,
                        const Periodic& periodic) {
    Decomposition d;
    int ranks = 1;
    MPI_CHECK(MPI_Comm_size(comm, &ranks));
    d.dims = process_grid(ranks, procs);
    d.global = global;
    d.periodic = periodic;
    int dims[3] = {d.dims[0], d.dims[1], d.dims[2]},
        periods[3] = {periodic[0], periodic[1], periodic[2]};
    MPI_Comm cart;
    MPI_CHECK(MPI_Cart_create(comm, 3, dims, periods, /*reorder=*/1, &cart));
    d.cart = Communicator(cart);
    MPI_CHECK(MPI_Comm_rank(cart, &d.rank));
    MPI_CHECK(MPI_Comm_size(cart, &d.size));
    int coords[3];
    MPI_CHECK(MPI_Cart_coords(cart, d.rank, 3, coords));
    for (int a = 0; a < 3; ++a) {
        d.coords[a] = coords[a];
        d.local[a] = piece_size(global[a], d.dims[a], coords[a]);
        d.offset[a] = piece_offset(global[a], d.dims[a], coords[a]);
        MPI_CHECK(MPI_Cart_shift(cart, a, 1, &d.neighbour[a][Low], &d.neighbour[a][High]));
    }
    for (int n = 0; n < kDirections; ++n) {
        const std::array<int, 3> dir = direction_of(n);
        int at[3];
        bool inside = true;
        for (int a = 0; a < 3; ++a) {
            at[a] = coords[a] + dir[a];
            if (periodic[a]) at[a] = (at[a] + d.dims[a]) % d.dims[a];
            inside = inside && at[a] >= 0 && at[a] < d.dims[a];
        }
        d.diagonal[n] = MPI_PROC_NULL;
        if (inside) MPI_CHECK(MPI_Cart_rank(cart, at, &d.diagonal[n]));
    }
    return d;
}

} // namespace stencil
