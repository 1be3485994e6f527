// The collective queries of SimulationOf<T>: checksum, gather, energy,
// probes, NaN checks and receiver sampling. Each reads the current field
// p(t_n), after settling the streams and timers (the mutable members).
#include "field_ops.hpp"
#include "step/simulation_impl.hpp"

#include <algorithm>
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
std::vector<T> SimulationOf<T>::local_interior(bool previous) const {
    std::vector<T> interior;
    local_interior_into(interior, previous);
    return interior;
}

template <class T>
void SimulationOf<T>::local_interior_into(std::vector<T>& interior, bool previous) const {
    settle_timers();
    // Packed on the device a slab of planes at a time (at most 64 MiB of
    // device memory beside the fields) and copied down packed: the host
    // never receives, or walks, the halos and padding.
    const Box owned = layout_.interior(); // not the ghost ring of deep halos
    const std::size_t plane = std::size_t(owned.x1 - owned.x0) * std::size_t(owned.y1 - owned.y0);
    const int depth = owned.z1 - owned.z0;
    const int planes = int(std::clamp<std::size_t>((std::size_t(64) << 20) / (plane * sizeof(T)), 1,
                                                   std::size_t(depth)));
    const FieldView<const T> field = fields_->level_view(previous);
    interior.resize(owned.cells()); // a buffer the caller reuses keeps its pages
    DeviceArray<T> slab(plane * std::size_t(planes));
    for (int z = owned.z0; z < owned.z1; z += planes) {
        Box part = owned;
        part.z0 = z, part.z1 = std::min(z + planes, owned.z1);
        launch_pack(field, part, slab.data(), compute_);
        compute_.synchronize(); // copy() runs on the legacy stream, which does not wait for ours
        copy(interior.data() + std::size_t(z - owned.z0) * plane, slab.data(),
             std::size_t(part.cells()) * sizeof(T));
    }
}

template <class T>
bool SimulationOf<T>::owns(const std::array<int, 3>& cell, std::array<int, 3>& local) const {
    for (int a = 0; a < 3; ++a) {
        if (cell[a] < d_.offset[a] || cell[a] >= d_.offset[a] + d_.local[a]) return false;
        local[a] = cell[a] - d_.offset[a] + layout_.halo;
    }
    return true;
}

template <class T>
std::uint64_t SimulationOf<T>::checksum() const {
    const std::vector<T> cells = local_interior();
    std::uint64_t sum = 0;
    std::size_t n = 0;
    for (int k = 0; k < d_.local[2]; ++k)
        for (int j = 0; j < d_.local[1]; ++j)
            for (int i = 0; i < d_.local[0]; ++i, ++n) {
                const std::uint64_t g =
                    std::uint64_t(i + d_.offset[0]) +
                    std::uint64_t(d_.global[0]) *
                        (std::uint64_t(j + d_.offset[1]) +
                         std::uint64_t(d_.global[1]) * std::uint64_t(k + d_.offset[2]));
                // A sum commutes: the order of ranks and cells is irrelevant.
                sum += mix(mix(g) ^ bits_of(cells[n]));
            }
    std::uint64_t total = 0;
    MPI_CHECK(MPI_Allreduce(&sum, &total, 1, MPI_UINT64_T, MPI_SUM, d_.cart.get()));
    return total;
}

template <class T>
std::vector<double> SimulationOf<T>::gather() const {
    const std::vector<int> boxes =
        gather_to_root(d_.cart.get(), std::vector<int>{d_.offset[0], d_.offset[1], d_.offset[2],
                                                       d_.local[0], d_.local[1], d_.local[2]});
    std::vector<int> displs;
    const std::vector<T> pieces = gather_to_root(d_.cart.get(), local_interior(), &displs);
    if (d_.rank != 0) return {};
    const std::size_t gx = d_.global[0], gy = d_.global[1];
    std::vector<double> global(gx * gy * std::size_t(d_.global[2]));
    for (int r = 0; r < d_.size; ++r) {
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
double SimulationOf<T>::energy() const {
    double local = 0, total = 0;
    for (T v : local_interior())
        local += double(v) * double(v);
    MPI_CHECK(MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, d_.cart.get()));
    return total;
}

template <class T>
double SimulationOf<T>::value_at(const std::array<int, 3>& cell) const {
    settle_timers();
    std::array<int, 3> local;
    double value = 0, total = 0;
    if (owns(cell, local)) {
        T v = 0;
        copy(&v, fields_->current_view().ptr(local[0], local[1], local[2]), sizeof v);
        value = v;
    }
    MPI_CHECK(MPI_Allreduce(&value, &total, 1, MPI_DOUBLE, MPI_SUM, d_.cart.get()));
    return total;
}

template <class T>
bool SimulationOf<T>::all_finite() const {
    int ok = 1, all = 0;
    for (T v : local_interior())
        ok = ok && std::isfinite(v);
    MPI_CHECK(MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, d_.cart.get()));
    return all == 1;
}

template <class T>
std::vector<double> SimulationOf<T>::interior_copy(bool previous) const {
    const std::vector<T> cells = local_interior(previous);
    return std::vector<double>(cells.begin(), cells.end());
}

template <class T>
bool SimulationOf<T>::local_offset(const std::array<int, 3>& cell, std::size_t& offset) const {
    std::array<int, 3> local;
    if (!owns(cell, local)) return false;
    offset = layout_.index(local[0], local[1], local[2]);
    return true;
}

template <class T>
void SimulationOf<T>::sample(const std::size_t* offsets, int count, double* out) {
    launch_gather_cells(fields_->current_view(), offsets, count, out, compute_);
}

template <class T>
void SimulationOf<T>::count_nonfinite_later() {
    if (nan_count_.pending) nan_count_.copied.synchronize(); // its pinned word is rewritten
    launch_count_nonfinite(fields_->current_view(), layout_.interior(), nan_count_.counter.data(),
                           nan_count_.count.data(), compute_);
    nan_count_.copied.record(compute_);
    nan_count_.pending = true;
}

template <class T>
int SimulationOf<T>::first_nonfinite_rank() {
    if (!nan_count_.pending) count_nonfinite_later();
    nan_count_.copied.synchronize();
    nan_count_.pending = false;
    const bool bad = nan_count_.count.data()[0] > 0;
    // Ranks as users see them: numbers in MPI_COMM_WORLD.
    int mine = bad ? world_rank() : INT_MAX, first = INT_MAX;
    MPI_CHECK(MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, d_.cart.get()));
    return first == INT_MAX ? -1 : first;
}

template <class T>
void SimulationOf<T>::set_value_at(const std::array<int, 3>& cell, double value) {
    // Every rank, not only the owner: the cell's copies in the stored faces
    // are the old value's, and the priming that stores them again is
    // collective with a link path (a lone owner priming waited for ever).
    primed_ = false;
    std::array<int, 3> l;
    if (!owns(cell, l)) return;
    const Box one{l[0], l[0] + 1, l[1], l[1] + 1, l[2], l[2] + 1};
    launch_fill(fields_->view(fields_->current()), one, T(value), compute_);
    compute_.synchronize();
}

// The members defined in this file, for both precisions. The class itself
// is instantiated once, in simulation.cpp: a class's explicit
// instantiation may stand in one translation unit only ([temp.spec]).
#define STENCIL_QUERY_MEMBERS(T)                                                                   \
    template std::vector<T> SimulationOf<T>::local_interior(bool) const;                           \
    template void SimulationOf<T>::local_interior_into(std::vector<T>&, bool) const;               \
    template bool SimulationOf<T>::owns(const std::array<int, 3>&, std::array<int, 3>&) const;     \
    template std::uint64_t SimulationOf<T>::checksum() const;                                      \
    template std::vector<double> SimulationOf<T>::gather() const;                                  \
    template double SimulationOf<T>::energy() const;                                               \
    template double SimulationOf<T>::value_at(const std::array<int, 3>&) const;                    \
    template bool SimulationOf<T>::all_finite() const;                                             \
    template std::vector<double> SimulationOf<T>::interior_copy(bool) const;                       \
    template bool SimulationOf<T>::local_offset(const std::array<int, 3>&, std::size_t&) const;    \
    template void SimulationOf<T>::sample(const std::size_t*, int, double*);                       \
    template int SimulationOf<T>::first_nonfinite_rank();                                          \
    template void SimulationOf<T>::count_nonfinite_later();                                        \
    template void SimulationOf<T>::set_value_at(const std::array<int, 3>&, double);
STENCIL_QUERY_MEMBERS(float)
STENCIL_QUERY_MEMBERS(double)

} // namespace stencil
