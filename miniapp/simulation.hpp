// One distributed wave-propagation run: the fields of this rank, the halo
// exchange, and the time loop with its overlap schedule.
#pragma once

#include "halo_exchange.hpp"
#include "model.hpp"
#include "options.hpp"

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <vector>

namespace stencil {

// Milliseconds summed over the timed steps of this rank: `step` over all
// `steps` of them; the phases over the `sampled` ones (the first timed step
// and every kPhaseSampling-th after), since each phase event costs the host
// about a microsecond per step, which small boxes notice.
struct PhaseTotals {
    double pack = 0, post = 0, interior = 0, wait = 0, unpack = 0, boundary = 0, step = 0;
    int steps = 0, sampled = 0;
};
constexpr int kPhaseSampling = 8;

class Simulation {
public:
    // Collective over `comm`. `global` is the global grid, `procs` the process grid.
    Simulation(const Config& config, const Physics& physics, const std::array<int, 3>& global,
               const std::array<int, 3>& procs, MPI_Comm comm, CommMode mode);
    ~Simulation();
    Simulation(const Simulation&) = delete;
    Simulation& operator=(const Simulation&) = delete;

    // Advances `steps` time steps; timed steps add to totals().
    void run(int steps, bool timed);

    const PhaseTotals& totals() const;
    const Decomposition& decomposition() const;
    std::size_t halo_bytes_per_step() const;
    std::size_t largest_face_floats() const; // the largest halo message of this rank
    int steps_done() const;
    // The wave kernel's launch shape over this rank's interior box (the
    // window chosen per box unless --window set it).
    const Tuning& interior_tuning() const;

    // Collective queries of the current field p(t_n).
    std::uint64_t checksum() const; // hash of the interior bit patterns, decomposition-independent
    std::vector<float> gather() const; // rank 0: the global interior, x fastest; others: empty
    double energy() const;             // sum of p^2 over the interior
    float value_at(const std::array<int, 3>& cell) const; // p at a global cell
    bool all_finite() const;
    // This rank's interior of p, x fastest (a host copy).
    std::vector<float> interior_copy() const;
    // The offset of a global cell from the field origin, if this rank owns it.
    bool local_offset(const std::array<int, 3>& cell, std::size_t& offset) const;
    // out[n] = p at offsets[n], n < count; device arrays, enqueued on the
    // compute stream: read `out` after settle().
    void sample(const std::size_t* offsets, int count, float* out);
    // Waits until every step and sample enqueued so far is done, before the
    // host reads device data they wrote (queries here do it themselves).
    void settle();
    // The lowest rank holding a NaN or Inf in its interior, or -1 (collective, cheap: a device
    // count).
    int first_nonfinite_rank() const;
    // p at a global cell = value, on the rank that owns it (testing aid; collective).
    void set_value_at(const std::array<int, 3>& cell, float value);

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace stencil
