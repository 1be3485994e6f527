#include "simulation.hpp"

#include "field_ops.hpp"
#include "stencil.hpp"

#include <chrono>
#include <climits>
#include <cmath>
#include <cstring>
#include <algorithm>
#include <functional>

namespace stencil {
namespace {

double now_ms() {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// splitmix64's finaliser: spreads a cell's index and bits over 64 bits, so
// that a sum of these over cells changes whenever any one cell does.
std::uint64_t mix(std::uint64_t x) {
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

using UpdateFn = std::function<void(FieldView<const float>, FieldView<float>, FieldView<const float>,
                                    const Box&, Stream&)>;

} // namespace

struct Simulation::Impl {
    Config config;
    Physics physics;
    Decomposition d;
    Layout layout;
    DeviceArray<float> fields[2]; // p and p_prev; the update writes p_next over p_prev
    DeviceArray<float> vel;       // dt^2 c^2
    int current = 0;              // index of p in fields
    Stream compute{StreamPriority::Normal};
    Stream halo{StreamPriority::High};
    std::unique_ptr<HaloExchange> exchange;
    Event ready, interior_start, interior_stop, boundary_start, boundary_stop;
    Box whole, inner;
    std::vector<Box> slabs; // the shell whole - inner, as non-overlapping boxes
    bool owns_source = false;
    int source_local[3] = {0, 0, 0};
    UpdateFn update;
    PhaseTotals totals;
    int steps_done = 0;

    FieldView<float> view(int which) { return view_of(fields[which].data(), layout); }
    FieldView<const float> vel_view() { return view_of(static_cast<const float*>(vel.data()), layout); }
    FieldView<float> view(int which) const {
        return view_of(const_cast<float*>(fields[which].data()), layout);
    }

    void setup_boxes();
    void setup_fields();
    void step(bool timed);
    std::vector<float> local_interior() const;
};

void Simulation::Impl::setup_boxes() {
    const int R = layout.radius;
    whole = layout.interior();
    // Shrink by R only on sides with a neighbour: a physical boundary's halo
    // is zero and never exchanged, so cells next to it need not wait.
    int lo[3], hi[3];
    const int w0[3] = {whole.x0, whole.y0, whole.z0}, w1[3] = {whole.x1, whole.y1, whole.z1};
    for (int a = 0; a < 3; ++a) {
        lo[a] = std::min(w0[a] + (d.has_neighbour(a, Low) ? R : 0), w1[a]);
        hi[a] = std::max(w1[a] - (d.has_neighbour(a, High) ? R : 0), lo[a]);
    }
    inner = {lo[0], hi[0], lo[1], hi[1], lo[2], hi[2]};
    // z slabs span the whole x-y extent, y slabs the remaining z, x slabs the rest.
    const Box candidates[6] = {
        {whole.x0, whole.x1, whole.y0, whole.y1, whole.z0, inner.z0},
        {whole.x0, whole.x1, whole.y0, whole.y1, inner.z1, whole.z1},
        {whole.x0, whole.x1, whole.y0, inner.y0, inner.z0, inner.z1},
        {whole.x0, whole.x1, inner.y1, whole.y1, inner.z0, inner.z1},
        {whole.x0, inner.x0, inner.y0, inner.y1, inner.z0, inner.z1},
        {inner.x1, whole.x1, inner.y0, inner.y1, inner.z0, inner.z1},
    };
    for (const Box& b : candidates)
        if (!b.empty()) slabs.push_back(b);
}

void Simulation::Impl::setup_fields() {
    // Device memory first: if it does not fit, the allocator says how much
    // was asked for and how much is free, before any host staging is made.
    for (auto& f : fields) f = DeviceArray<float>(layout.allocation());
    vel = DeviceArray<float>(layout.allocation());
    std::vector<float> host(layout.allocation(), 0.0f);
    for (auto& f : fields) copy_to_device(f, host.data()); // zero halos are the Dirichlet boundary
    // dt^2 c^2 everywhere, the halo included (its cells are never updated).
    const FieldView<float> v = view_of(host.data(), layout);
    const double dt = physics.dt;
    for (int k = 0; k < layout.pz(); ++k) {
        const int gk = std::min(std::max(k - layout.radius + d.offset[2], 0), d.global[2] - 1);
        const float value = float(std::pow(velocity_at(config.model, gk, d.global[2]) * dt, 2));
        for (int j = 0; j < layout.py(); ++j)
            for (int i = 0; i < layout.px(); ++i) v(i, j, k) = value;
    }
    copy_to_device(vel, host.data());
}

Simulation::Simulation(const Config& config, const Physics& physics, const std::array<int, 3>& global,
                       const std::array<int, 3>& procs, MPI_Comm comm, CommMode mode)
    : impl_(std::make_unique<Impl>()) {
    Impl& s = *impl_;
    s.config = config;
    s.physics = physics;
    s.d = decompose(comm, global, procs);
    const int R = config.radius;
    s.layout = Layout(s.d.local[0], s.d.local[1], s.d.local[2], R);
    s.setup_boxes();
    s.setup_fields();
    s.exchange = std::make_unique<HaloExchange>(
        s.d, s.layout, mode, std::vector<float*>{s.fields[0].data(), s.fields[1].data()}, s.halo);
    s.exchange->set_drop_one_face(config.drop_face);

    Sponge sponge;
    sponge.width = config.sponge;
    sponge.strength = physics.sponge_strength;
    sponge.radius = R;
    for (int a = 0; a < 3; ++a) sponge.offset[a] = s.d.offset[a], sponge.extent[a] = global[a];
    s.owns_source = true;
    for (int a = 0; a < 3; ++a) {
        const int local = physics.source[a] - s.d.offset[a];
        s.owns_source = s.owns_source && local >= 0 && local < s.d.local[a];
        s.source_local[a] = local + R;
    }
    // The one run-time to compile-time radius switch of the time loop.
    const Tuning tuning = config.tuning;
    const double h = config.spacing;
    s.update = dispatch_radius(R, [&](auto radius) -> UpdateFn {
        constexpr int RR = decltype(radius)::value;
        const auto c = make_coefficients<RR, float>(h, h, h);
        return [c, sponge, tuning](FieldView<const float> p, FieldView<float> prev, FieldView<const float> v,
                                   const Box& box, Stream& stream) {
            launch_wave_step<RR>(p, prev, v, box, c, sponge, stream, tuning);
        };
    });
    s.ready.record(s.compute);
}

Simulation::~Simulation() = default;

void Simulation::Impl::step(bool timed) {
    const FieldView<float> p = view(current), next = view(1 - current);
    const double start = now_ms();
    if (config.poison_halo) exchange->poison_halo(p, ready);
    exchange->pack(p, ready);
    exchange->post();
    if (config.overlap) {
        interior_start.record(compute);
        update(p, next, vel_view(), inner, compute);
        interior_stop.record(compute);
        exchange->finish(p).make_wait(compute);
        boundary_start.record(compute);
        for (const Box& slab : slabs) update(p, next, vel_view(), slab, compute);
        boundary_stop.record(compute);
    } else {
        exchange->finish(p).make_wait(compute);
        interior_start.record(compute);
        update(p, next, vel_view(), whole, compute);
        interior_stop.record(compute);
        boundary_start.record(compute);
        boundary_stop.record(compute);
    }
    if (owns_source) {
        const double h3 = std::pow(config.spacing, 3);
        const double t = steps_done * physics.dt;
        const float amplitude = float(physics.dt * physics.dt * ricker(t, physics.f0, physics.t0) / h3);
        launch_add_at(next, source_local[0], source_local[1], source_local[2], amplitude, compute);
    }
    ready.record(compute);
    compute.synchronize();
    const double stop = now_ms();
    current = 1 - current;
    ++steps_done;
    if (!timed) return;
    exchange->read_times();
    const HaloPhaseTimes& h = exchange->last_times();
    totals.pack += h.pack, totals.post += h.post, totals.wait += h.wait, totals.unpack += h.unpack;
    totals.interior += elapsed_ms(interior_start, interior_stop);
    totals.boundary += elapsed_ms(boundary_start, boundary_stop);
    totals.step += stop - start;
    ++totals.steps;
}

void Simulation::run(int steps, bool timed) {
    for (int n = 0; n < steps; ++n) impl_->step(timed);
}

const PhaseTotals& Simulation::totals() const { return impl_->totals; }
const Decomposition& Simulation::decomposition() const { return impl_->d; }
std::size_t Simulation::halo_bytes_per_step() const { return impl_->exchange->bytes_per_exchange(); }
int Simulation::steps_done() const { return impl_->steps_done; }

std::size_t Simulation::largest_face_floats() const {
    const Layout& L = impl_->layout;
    const std::size_t x = std::size_t(L.radius) * L.ny * L.nz, y = std::size_t(L.nx) * L.radius * L.nz,
                      z = std::size_t(L.radius) * L.slice;
    return std::max({x, y, z});
}

std::vector<float> Simulation::Impl::local_interior() const {
    std::vector<float> all(layout.allocation());
    copy_to_host(all.data(), fields[current]);
    const FieldView<float> v = view_of(all.data(), layout);
    std::vector<float> interior;
    interior.reserve(whole.cells());
    for (int k = whole.z0; k < whole.z1; ++k)
        for (int j = whole.y0; j < whole.y1; ++j)
            for (int i = whole.x0; i < whole.x1; ++i) interior.push_back(v(i, j, k));
    return interior;
}

std::uint64_t Simulation::checksum() const {
    const Impl& s = *impl_;
    const std::vector<float> cells = s.local_interior();
    std::uint64_t sum = 0;
    std::size_t n = 0;
    for (int k = 0; k < s.d.local[2]; ++k)
        for (int j = 0; j < s.d.local[1]; ++j)
            for (int i = 0; i < s.d.local[0]; ++i, ++n) {
                const std::uint64_t g = std::uint64_t(i + s.d.offset[0]) +
                                        std::uint64_t(s.d.global[0]) *
                                            (std::uint64_t(j + s.d.offset[1]) +
                                             std::uint64_t(s.d.global[1]) * std::uint64_t(k + s.d.offset[2]));
                std::uint32_t bits;
                std::memcpy(&bits, &cells[n], sizeof bits);
                sum += mix(mix(g) ^ bits); // a sum commutes: the order of ranks and cells is irrelevant
            }
    std::uint64_t total = 0;
    MPI_CHECK(MPI_Allreduce(&sum, &total, 1, MPI_UINT64_T, MPI_SUM, s.d.cart.get()));
    return total;
}

std::vector<float> Simulation::gather() const {
    const Impl& s = *impl_;
    const std::vector<float> mine = s.local_interior();
    const int count = int(mine.size());
    int box[6] = {s.d.offset[0], s.d.offset[1], s.d.offset[2], s.d.local[0], s.d.local[1], s.d.local[2]};
    std::vector<int> counts(s.d.size), displs(s.d.size), boxes(6 * s.d.size);
    MPI_CHECK(MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, s.d.cart.get()));
    MPI_CHECK(MPI_Gather(box, 6, MPI_INT, boxes.data(), 6, MPI_INT, 0, s.d.cart.get()));
    std::vector<float> pieces;
    if (s.d.rank == 0) {
        for (int r = 1; r < s.d.size; ++r) displs[r] = displs[r - 1] + counts[r - 1];
        pieces.resize(std::size_t(displs.back()) + counts.back());
    }
    MPI_CHECK(MPI_Gatherv(mine.data(), count, MPI_FLOAT, pieces.data(), counts.data(), displs.data(),
                          MPI_FLOAT, 0, s.d.cart.get()));
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
    for (float v : impl_->local_interior()) local += double(v) * v;
    MPI_CHECK(MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, impl_->d.cart.get()));
    return total;
}

float Simulation::value_at(const std::array<int, 3>& cell) const {
    const Impl& s = *impl_;
    bool mine = true;
    for (int a = 0; a < 3; ++a) mine = mine && cell[a] >= s.d.offset[a] && cell[a] < s.d.offset[a] + s.d.local[a];
    double value = 0, total = 0;
    if (mine) {
        float v = 0;
        const FieldView<float> p = s.view(s.current);
        copy(&v, p.ptr(cell[0] - s.d.offset[0] + s.layout.radius, cell[1] - s.d.offset[1] + s.layout.radius,
                       cell[2] - s.d.offset[2] + s.layout.radius), sizeof v);
        value = v;
    }
    MPI_CHECK(MPI_Allreduce(&value, &total, 1, MPI_DOUBLE, MPI_SUM, s.d.cart.get()));
    return float(total);
}

std::vector<float> Simulation::interior_copy() const { return impl_->local_interior(); }

bool Simulation::local_offset(const std::array<int, 3>& cell, std::size_t& offset) const {
    const Impl& s = *impl_;
    for (int a = 0; a < 3; ++a)
        if (cell[a] < s.d.offset[a] || cell[a] >= s.d.offset[a] + s.d.local[a]) return false;
    const int R = s.layout.radius;
    offset = s.layout.index(cell[0] - s.d.offset[0] + R, cell[1] - s.d.offset[1] + R, cell[2] - s.d.offset[2] + R);
    return true;
}

void Simulation::sample(const std::size_t* offsets, int count, float* out) {
    Impl& s = *impl_;
    launch_gather_cells(s.view(s.current), offsets, count, out, s.compute);
    s.compute.synchronize();
}

int Simulation::first_nonfinite_rank() const {
    Impl& s = *impl_;
    const bool bad = count_nonfinite(s.view(s.current), s.whole, s.compute) > 0;
    int mine = bad ? s.d.rank : INT_MAX, first = INT_MAX;
    MPI_CHECK(MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, s.d.cart.get()));
    if (first == INT_MAX) return -1;
    // Report the rank's number in MPI_COMM_WORLD, the one users see.
    int world = first == s.d.rank ? world_rank() : 0, named = 0;
    MPI_CHECK(MPI_Allreduce(&world, &named, 1, MPI_INT, MPI_MAX, s.d.cart.get()));
    return named;
}

void Simulation::set_value_at(const std::array<int, 3>& cell, float value) {
    Impl& s = *impl_;
    bool mine = true;
    for (int a = 0; a < 3; ++a) mine = mine && cell[a] >= s.d.offset[a] && cell[a] < s.d.offset[a] + s.d.local[a];
    if (!mine) return;
    const FieldView<float> p = s.view(s.current);
    const int R = s.layout.radius;
    const Box one{cell[0] - s.d.offset[0] + R, cell[0] - s.d.offset[0] + R + 1, cell[1] - s.d.offset[1] + R,
                  cell[1] - s.d.offset[1] + R + 1, cell[2] - s.d.offset[2] + R, cell[2] - s.d.offset[2] + R + 1};
    launch_fill(p, one, value, s.compute);
    s.compute.synchronize();
}

bool Simulation::all_finite() const {
    int ok = 1, all = 0;
    for (float v : impl_->local_interior()) ok = ok && std::isfinite(v);
    MPI_CHECK(MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, impl_->d.cart.get()));
    return all == 1;
}

} // namespace stencil
