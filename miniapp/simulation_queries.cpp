// The collective queries of a Simulation: checksum, gather, energy, probes,
// NaN checks and receiver sampling. Each reads the current field p(t_n).
#include "field_ops.hpp"
#include "simulation_impl.hpp"

#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace stencil {
namespace {

// splitmix64's finaliser: spreads a cell's index and bits over 64 bits, so
// that a sum of these over cells changes whenever any one cell does.
std::uint64_t mix(std::uint64_t x) {
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

// The bits of a cell's value, whatever its width: 32 or 64 of them.
template <class T>
std::uint64_t bits_of(T value) {
    if constexpr (sizeof(T) == 4) {
        std::uint32_t bits;
        std::memcpy(&bits, &value, sizeof bits);
        return bits;
    } else {
        std::uint64_t bits;
        std::memcpy(&bits, &value, sizeof bits);
        return bits;
    }
}

} // namespace

template <class T>
std::vector<T> SimulationState<T>::local_interior() {
    settle(); // copy() runs on the legacy stream, which does not wait for ours
    std::vector<T> all(layout.allocation());
    copy_to_host(all.data(), fields[current]);
    const FieldView<T> v = view_of(all.data(), layout);
    std::vector<T> interior;
    interior.reserve(whole.box.cells());
    for (int k = whole.box.z0; k < whole.box.z1; ++k)
        for (int j = whole.box.y0; j < whole.box.y1; ++j)
            for (int i = whole.box.x0; i < whole.box.x1; ++i)
                interior.push_back(v(i, j, k));
    return interior;
}

template <class T>
bool SimulationState<T>::owns(const std::array<int, 3>& cell, std::array<int, 3>& local) const {
    for (int a = 0; a < 3; ++a) {
        if (cell[a] < d.offset[a] || cell[a] >= d.offset[a] + d.local[a]) return false;
        local[a] = cell[a] - d.offset[a] + layout.radius;
    }
    return true;
}

template <class T>
std::uint64_t checksum_of(SimulationState<T>& s) {
    const std::vector<T> cells = s.local_interior();
    std::uint64_t sum = 0;
    std::size_t n = 0;
    for (int k = 0; k < s.d.local[2]; ++k)
        for (int j = 0; j < s.d.local[1]; ++j)
            for (int i = 0; i < s.d.local[0]; ++i, ++n) {
                const std::uint64_t g =
                    std::uint64_t(i + s.d.offset[0]) +
                    std::uint64_t(s.d.global[0]) *
                        (std::uint64_t(j + s.d.offset[1]) +
                         std::uint64_t(s.d.global[1]) * std::uint64_t(k + s.d.offset[2]));
                // A sum commutes: the order of ranks and cells is irrelevant.
                sum += mix(mix(g) ^ bits_of(cells[n]));
            }
    std::uint64_t total = 0;
    MPI_CHECK(MPI_Allreduce(&sum, &total, 1, MPI_UINT64_T, MPI_SUM, s.d.cart.get()));
    return total;
}

template <class T>
std::vector<double> gather_of(SimulationState<T>& s) {
    const std::vector<int> boxes =
        gather_to_root(s.d.cart.get(), std::vector<int>{s.d.offset[0], s.d.offset[1], s.d.offset[2],
                                                        s.d.local[0], s.d.local[1], s.d.local[2]});
    std::vector<int> displs;
    const std::vector<T> pieces = gather_to_root(s.d.cart.get(), s.local_interior(), &displs);
    if (s.d.rank != 0) return {};
    const std::size_t gx = s.d.global[0], gy = s.d.global[1];
    std::vector<double> global(gx * gy * std::size_t(s.d.global[2]));
    for (int r = 0; r < s.d.size; ++r) {
        const int* b = &boxes[6 * r];
        std::size_t n = displs[r];
        for (int k = 0; k < b[5]; ++k)
            for (int j = 0; j < b[4]; ++j)
                for (int i = 0; i < b[3]; ++i)
                    global[(b[0] + i) + gx * ((b[1] + j) + gy * (b[2] + k))] = pieces[n++];
    }
    return global;
}

template <class T>
double energy_of(SimulationState<T>& s) {
    double local = 0, total = 0;
    for (T v : s.local_interior())
        local += double(v) * double(v);
    MPI_CHECK(MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, s.d.cart.get()));
    return total;
}

template <class T>
double value_at_of(SimulationState<T>& s, const std::array<int, 3>& cell) {
    s.settle();
    std::array<int, 3> local;
    double value = 0, total = 0;
    if (s.owns(cell, local)) {
        T v = 0;
        copy(&v, s.view(s.current).ptr(local[0], local[1], local[2]), sizeof v);
        value = v;
    }
    MPI_CHECK(MPI_Allreduce(&value, &total, 1, MPI_DOUBLE, MPI_SUM, s.d.cart.get()));
    return total;
}

template <class T>
void sample_of(SimulationState<T>& s, const std::size_t* offsets, int count, double* out) {
    launch_gather_cells(FieldView<const T>(s.view(s.current)), offsets, count, out, s.compute);
}

template <class T>
int first_nonfinite_rank_of(SimulationState<T>& s) {
    const bool bad = count_nonfinite(FieldView<const T>(s.view(s.current)), s.whole.box,
                                     s.nan_counter.data(), s.compute) > 0;
    // Ranks as users see them: numbers in MPI_COMM_WORLD.
    int mine = bad ? world_rank() : INT_MAX, first = INT_MAX;
    MPI_CHECK(MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, s.d.cart.get()));
    return first == INT_MAX ? -1 : first;
}

template <class T>
void set_value_at_of(SimulationState<T>& s, const std::array<int, 3>& cell, double value) {
    std::array<int, 3> l;
    if (!s.owns(cell, l)) return;
    const Box one{l[0], l[0] + 1, l[1], l[1] + 1, l[2], l[2] + 1};
    launch_fill(s.view(s.current), one, T(value), s.compute);
    s.compute.synchronize();
}

template <class T>
bool all_finite_of(SimulationState<T>& s) {
    int ok = 1, all = 0;
    for (T v : s.local_interior())
        ok = ok && std::isfinite(v);
    MPI_CHECK(MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, s.d.cart.get()));
    return all == 1;
}

#define STENCIL_INSTANTIATE_QUERIES(T)                                                             \
    template std::vector<T> SimulationState<T>::local_interior();                                  \
    template bool SimulationState<T>::owns(const std::array<int, 3>&, std::array<int, 3>&) const;  \
    template std::uint64_t checksum_of(SimulationState<T>&);                                       \
    template std::vector<double> gather_of(SimulationState<T>&);                                   \
    template double energy_of(SimulationState<T>&);                                                \
    template double value_at_of(SimulationState<T>&, const std::array<int, 3>&);                   \
    template void sample_of(SimulationState<T>&, const std::size_t*, int, double*);                \
    template int first_nonfinite_rank_of(SimulationState<T>&);                                     \
    template void set_value_at_of(SimulationState<T>&, const std::array<int, 3>&, double);         \
    template bool all_finite_of(SimulationState<T>&);
STENCIL_INSTANTIATE_QUERIES(float)
STENCIL_INSTANTIATE_QUERIES(double)

} // namespace stencil
