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

} // namespace

std::vector<float> Simulation::Impl::local_interior() {
    settle(); // copy() runs on the legacy stream, which does not wait for ours
    std::vector<float> all(layout.allocation());
    copy_to_host(all.data(), fields[current]);
    const FieldView<float> v = view_of(all.data(), layout);
    std::vector<float> interior;
    interior.reserve(whole.box.cells());
    for (int k = whole.box.z0; k < whole.box.z1; ++k)
        for (int j = whole.box.y0; j < whole.box.y1; ++j)
            for (int i = whole.box.x0; i < whole.box.x1; ++i)
                interior.push_back(v(i, j, k));
    return interior;
}

std::uint64_t Simulation::checksum() const {
    Impl& s = *impl_;
    const std::vector<float> cells = s.local_interior();
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
                std::uint32_t bits;
                std::memcpy(&bits, &cells[n], sizeof bits);
                sum += mix(mix(g) ^
                           bits); // a sum commutes: the order of ranks and cells is irrelevant
            }
    std::uint64_t total = 0;
    MPI_CHECK(MPI_Allreduce(&sum, &total, 1, MPI_UINT64_T, MPI_SUM, s.d.cart.get()));
    return total;
}

std::vector<float> Simulation::gather() const {
    Impl& s = *impl_;
    const std::vector<float> mine = s.local_interior();
    const int count = int(mine.size());
    int box[6] = {s.d.offset[0], s.d.offset[1], s.d.offset[2],
                  s.d.local[0],  s.d.local[1],  s.d.local[2]};
    std::vector<int> counts(s.d.size), displs(s.d.size), boxes(6 * s.d.size);
    MPI_CHECK(MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, s.d.cart.get()));
    MPI_CHECK(MPI_Gather(box, 6, MPI_INT, boxes.data(), 6, MPI_INT, 0, s.d.cart.get()));
    std::vector<float> pieces;
    if (s.d.rank == 0) {
        for (int r = 1; r < s.d.size; ++r)
            displs[r] = displs[r - 1] + counts[r - 1];
        pieces.resize(std::size_t(displs.back()) + counts.back());
    }
    MPI_CHECK(MPI_Gatherv(mine.data(), count, MPI_FLOAT, pieces.data(), counts.data(),
                          displs.data(), MPI_FLOAT, 0, s.d.cart.get()));
    if (s.d.rank != 0) return {};
    const std::size_t gx = s.d.global[0], gy = s.d.global[1];
    std::vector<float> global(gx * gy * std::size_t(s.d.global[2]));
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

double Simulation::energy() const {
    double local = 0, total = 0;
    for (float v : impl_->local_interior())
        local += double(v) * v;
    MPI_CHECK(MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, impl_->d.cart.get()));
    return total;
}

float Simulation::value_at(const std::array<int, 3>& cell) const {
    Impl& s = *impl_;
    s.settle();
    bool mine = true;
    for (int a = 0; a < 3; ++a)
        mine = mine && cell[a] >= s.d.offset[a] && cell[a] < s.d.offset[a] + s.d.local[a];
    double value = 0, total = 0;
    if (mine) {
        float v = 0;
        const FieldView<float> p = s.view(s.current);
        copy(&v,
             p.ptr(cell[0] - s.d.offset[0] + s.layout.radius,
                   cell[1] - s.d.offset[1] + s.layout.radius,
                   cell[2] - s.d.offset[2] + s.layout.radius),
             sizeof v);
        value = v;
    }
    MPI_CHECK(MPI_Allreduce(&value, &total, 1, MPI_DOUBLE, MPI_SUM, s.d.cart.get()));
    return float(total);
}

std::vector<float> Simulation::interior_copy() const {
    return impl_->local_interior();
}

bool Simulation::local_offset(const std::array<int, 3>& cell, std::size_t& offset) const {
    const Impl& s = *impl_;
    for (int a = 0; a < 3; ++a)
        if (cell[a] < s.d.offset[a] || cell[a] >= s.d.offset[a] + s.d.local[a]) return false;
    const int R = s.layout.radius;
    offset = s.layout.index(cell[0] - s.d.offset[0] + R, cell[1] - s.d.offset[1] + R,
                            cell[2] - s.d.offset[2] + R);
    return true;
}

void Simulation::sample(const std::size_t* offsets, int count, float* out) {
    Impl& s = *impl_;
    launch_gather_cells(s.view(s.current), offsets, count, out, s.compute);
}

void Simulation::settle() {
    impl_->settle();
}

int Simulation::first_nonfinite_rank() const {
    Impl& s = *impl_;
    const bool bad =
        count_nonfinite(s.view(s.current), s.whole.box, s.nan_counter.data(), s.compute) > 0;
    // Ranks as users see them: numbers in MPI_COMM_WORLD.
    int mine = bad ? world_rank() : INT_MAX, first = INT_MAX;
    MPI_CHECK(MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, s.d.cart.get()));
    return first == INT_MAX ? -1 : first;
}

void Simulation::set_value_at(const std::array<int, 3>& cell, float value) {
    Impl& s = *impl_;
    bool mine = true;
    for (int a = 0; a < 3; ++a)
        mine = mine && cell[a] >= s.d.offset[a] && cell[a] < s.d.offset[a] + s.d.local[a];
    if (!mine) return;
    const FieldView<float> p = s.view(s.current);
    const int R = s.layout.radius;
    const Box one{cell[0] - s.d.offset[0] + R, cell[0] - s.d.offset[0] + R + 1,
                  cell[1] - s.d.offset[1] + R, cell[1] - s.d.offset[1] + R + 1,
                  cell[2] - s.d.offset[2] + R, cell[2] - s.d.offset[2] + R + 1};
    launch_fill(p, one, value, s.compute);
    s.compute.synchronize();
}

bool Simulation::all_finite() const {
    int ok = 1, all = 0;
    for (float v : impl_->local_interior())
        ok = ok && std::isfinite(v);
    MPI_CHECK(MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, impl_->d.cart.get()));
    return all == 1;
}

} // namespace stencil
