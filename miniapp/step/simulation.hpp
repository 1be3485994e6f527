// One distributed wave-propagation run: the fields of this rank, the halo
// exchange, and the time loop with its overlap schedule.
#pragma once

#include "config/model.hpp"
#include "config/options.hpp"
#include "config/run_context.hpp"
#include "config/run_plan.hpp"
#include "halo_exchange.hpp"
#include "step/timeline.hpp"

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <vector>

namespace stencil {

// Milliseconds summed over the timed steps of this rank: `step` over all
// `steps` of them, each window of steps measured from the moment every rank
// started it (Simulation::start_window), so it is the rank's timed windows
// added up; the phases over the `sampled` ones (the first timed step
// and every kPhaseSampling-th after), since each phase event costs the host
// about a microsecond per step, which small boxes notice.
struct PhaseTotals {
    double pack = 0, post = 0, interior = 0, wait = 0, unpack = 0, boundary = 0, step = 0;
    int steps = 0, sampled = 0;
};
constexpr int kPhaseSampling = 8;

// A run seen by concern. make_simulation builds one object with all of
// them (Simulation, below, in the precision options.precision selects:
// SimulationOf<T>, simulation_impl.hpp); a caller that needs one concern
// alone takes it (the outputs the field's queries, the tuner the launch
// shapes, the timeline file the timeline). Host copies of field values come back as double whatever
// the precision: widening a float is exact, so bitwise comparisons still hold.

// The current field p(t_n), as the outputs, checks and checkpoints read it.
// Queries marked collective must be called by every rank.
class FieldQueries {
public:
    virtual ~FieldQueries() = default;
    virtual const Decomposition& decomposition() const = 0;
    virtual Precision precision() const = 0;
    // Collective: a hash of the interior's bit patterns in the run's
    // precision, decomposition-independent.
    virtual std::uint64_t checksum() const = 0;
    // Collective: rank 0 gets the global interior, x fastest; others: empty.
    virtual std::vector<double> gather() const = 0;
    virtual double energy() const = 0; // collective: sum of p^2
    virtual double
    value_at(const std::array<int, 3>& cell) const = 0; // collective: p at a global cell
    virtual bool all_finite() const = 0;                // collective
    // Collective and cheap (a device count): the lowest rank holding a NaN
    // or Inf in its interior, or -1. Its count is the one
    // count_nonfinite_later() started, where one is pending (the field as
    // it was then); else it counts now. count_nonfinite_later() enqueues a
    // count of the current field on the device and returns at once, so
    // that the NaN check need not wait for the device to drain (driver.cpp).
    virtual int first_nonfinite_rank() = 0;
    virtual void count_nonfinite_later() = 0;
    // This rank's interior of p(t_n), or with `previous` of p(t_{n-1}), x
    // fastest (a host copy).
    virtual std::vector<double> interior_copy(bool previous = false) const = 0;
    // The same in the run's precision, for the large writes (checkpoints):
    // no widened copy, and `out`'s memory reused. Asking for the other
    // precision is a bug (fatal).
    virtual void interior_in_precision(std::vector<float>& out, bool previous) const = 0;
    virtual void interior_in_precision(std::vector<double>& out, bool previous) const = 0;
    // The offset of a global cell from the field origin, if this rank owns it.
    virtual bool local_offset(const std::array<int, 3>& cell, std::size_t& offset) const = 0;
    // out[n] = p at offsets[n], n < count, widened to double; device arrays,
    // enqueued on the compute stream: read `out` after settle().
    virtual void sample(const std::size_t* offsets, int count, double* out) = 0;
    // Waits until every step and sample enqueued so far is done, before the
    // host reads device data they wrote (the queries above do it themselves).
    virtual void settle() = 0;
};

// The boxes the step launches over and their launch shapes (the tuner).
class LaunchShapes {
public:
    virtual ~LaunchShapes() = default;
    // The wave kernel's launch shape over this rank's interior box (the
    // window chosen per box unless --window set it).
    virtual const LaunchShape& interior_shape() const = 0;
    // Every box this rank's time step launches the wave update over (the
    // interior or whole box, and the boundary slabs), with its shape.
    virtual std::vector<LaunchBox> launch_boxes() const = 0;
    // Sets the shape of every box of this rank with these extents (cells
    // along x, y, z): the tuner's choice, the same for equal boxes on every
    // rank. Results do not change (the shape changes no bit; tested).
    virtual void set_launch_shape(const std::array<int, 3>& extents, const LaunchShape& shape) = 0;
};

// --timeline: the phases of the first sampled steps as spans (timeline.hpp).
class PhaseTimeline {
public:
    virtual ~PhaseTimeline() = default;
    // From now on; before the first step, so that captured graphs hold the
    // timeline's events (graphs captured before are dropped).
    virtual void record_timeline() = 0;
    // This rank's timeline so far, its steps settled first; null without
    // record_timeline().
    virtual const Timeline* timeline() const = 0;
};

// The whole run, for the driver that owns it: the concerns above that a
// caller takes on their own, and what only the owner asks.
class Simulation : public FieldQueries, public LaunchShapes, public PhaseTimeline {
public:
    // Advancing the run in time (the driver, checkpoints, the trials).
    // Advances `steps` time steps; timed steps add to the statistics' totals().
    virtual void run(int steps, bool timed) = 0;
    // Back to t = 0: both time levels zero, the source's clock and the step
    // count reset, the timers cleared. What the steps built is kept (launch
    // shapes, buffers, captured graphs), so warm-up steps can be undone and
    // --steps alone sets the physics (driver.cpp).
    virtual void rewind() = 0;
    // Continues from a checkpoint: rewind(), then this rank's interiors of
    // p(t_n) and p(t_{n-1}) (x fastest, as interior_copy gives them) at
    // step n = `step`; the halos come from the next step's exchange, which
    // starts a fresh deep-halo cycle. steps_done() then counts from `step`.
    virtual void restore(int step, const std::vector<double>& p,
                         const std::vector<double>& p_prev) = 0;
    virtual int steps_done() const = 0;
    // Collective over the run's communicator: waits until this rank's steps
    // so far are done, then for every rank, and measures the next timed
    // step from here rather than from its predecessor's end. Without it a
    // rank that reaches its timed steps first (warm-up, rewind, a restore,
    // a checkpoint or a trial's set-up ending sooner there) charges its
    // first step with the time it waits for the others' halos.
    virtual void start_window() = 0;

    // What the run did and how it is set up, for the report.
    virtual const PhaseTotals& totals() const = 0;
    virtual std::size_t halo_bytes_per_step() const = 0; // per exchange, sent and received
    // The halo depth k: a halo k*R deep, exchanged once every k steps.
    virtual int halo_depth() const = 0;
    // Cells of this rank's widest x boundary slab as it runs (--slab-x,
    // capped at the box), 0 where it has none (no neighbour along x).
    // Overlap off runs the whole box instead.
    virtual int slab_x() const = 0;
    // Cells this rank updates per k steps, and how many of them it owns (k
    // times its interior); the rest are its neighbours', updated again here.
    virtual void updated_cells(double& updated, double& owned) const = 0;
    virtual std::size_t largest_face_bytes() const = 0; // the largest halo message of this rank
    // This rank's halo faces; `self`: those it is its own neighbour for.
    virtual int halo_faces(int& self) const = 0;
    // How this rank's faces are filled (FaceRoutes::describe), and how many
    // of them are linked to a neighbour on the node.
    struct FaceRouteSummary {
        std::string text;
        int linked = 0;
    };
    virtual FaceRouteSummary face_routes() const = 0;
    // Whether the boundary kernels store faces the next exchange sends (the
    // fused pack: no pack launch, no unpack of the rank's own faces); false
    // where all of this rank's faces are z faces, which go in place.
    virtual bool fused_pack() const = 0;
    // Whether the fused pack applies to this rank at all (its faces may
    // still all be z faces, which store nothing).
    virtual bool fused_pack_applies() const = 0;
    // Whether steps replay captured graphs (--graphs; never on HOST).
    virtual bool graphs() const = 0;
    // Consecutive steps run at once, one graph where there are graphs
    // (--steps-per-graph; step_chunks.cpp); 1 where steps run one by one.
    virtual int steps_per_graph() const = 0;

    // Collective: p at a global cell = value, on the rank that owns it.
    virtual void set_value_at(const std::array<int, 3>& cell, double value) = 0;
};

class StepHookMaker; // step/step_hooks.hpp

// Collective over `comm`. The plan gives the global and process grids, the
// halo path and depth; the element type is options.precision. `hooks`,
// where given, makes the hook that may add to each step (step_hooks.hpp);
// without it the step runs alone.
std::unique_ptr<Simulation> make_simulation(const RunContext& run, MPI_Comm comm,
                                            const StepHookMaker* hooks = nullptr);

} // namespace stencil
