// The time step as data: one ordered list of phases, each tagged with where
// it runs. SimulationOf<T> (simulation.cpp) builds the lists once, at
// setup, and one of two runners launches a list every step: the plain
// runner enqueues phase after phase; the graph runner captures each run of
// device phases between host phases as a graph and replays it. Changing
// the schedule is a change to step_phases() alone.
//
// Host-only and pure, so CI checks every schedule without a GPU.
#pragma once

#include <string>
#include <vector>

namespace stencil {

// What a phase does (SimulationOf<T>::enqueue says how).
enum class PhaseKind {
    Begin,    // host bookkeeping: the step's timer slot and MPI request set
    Fork,     // the halo stream waits for the compute stream (the previous step)
    Pack,     // owned faces into send buffers (Staged: and on to pinned memory);
              // with the fused pack, only the event the sends wait for
    Interior, // the update of the box that needs no new halo: the interior
              // shrunk by R, or a deep-halo ring step's box
    Post,     // MPI: wait for the pack, start the requests; NCCL: enqueue the group
    Wait,     // MPI: complete the requests
    Unpack,   // received faces into the halos
    Boundary, // the shell between the interior and the halo: the slabs
    Whole,    // the whole box at once (overlap off, or nothing to hide), after
              // the halos are in. Every update stores the faces it computes
              // where the routes say (halo/face_routes.hpp)
    Await,    // the linked route: the device waits until every linked neighbour
              // has finished the step before (its faces stored into this rank's
              // halos, and done reading the halos this rank stores into)
    Join,     // the compute stream waits for the halo stream
    Source,   // the Ricker source, after the update of its cell
    Signal,   // the linked route: this rank's step raised in its linked neighbours
    Hook,     // work a hook added (step/step_hooks.hpp), never in a list that
              // step_phases() makes: which of its points is Phase::hook_point
};

// Where a phase runs: on the host, or on one of the two streams.
enum class Lane { Host, Compute, Halo };

struct Phase {
    PhaseKind kind;
    Lane lane;
    int hook_point = 0; // of a Hook phase: the hook's own numbering
};

// What decides a schedule, by the routes of the rank's faces
// (halo/face_routes.hpp); all fixed at setup.
struct ScheduleInputs {
    // The interior runs while the halos travel, the slabs after: some
    // side's halo arrives during the step (a message, or a self face the
    // exchange copies). Otherwise one whole-box update.
    bool overlap = true;
    bool messages = true;               // the message route: the exchange works on the halo stream
    bool host_between = true;           // MPI: the host acts between pack and unpack
    bool pack_reaches_interior = false; // the pack reads cells the interior writes
    // The linked route: the step first waits for the linked neighbours'
    // last step, and ends by raising this rank's.
    bool links = false;
};

// The phases of a step `ring_step` steps after an exchange: 0 for the
// exchange step itself; a deep-halo ring step (1 .. k-1) is the same list
// with the exchange's phases left out.
std::vector<Phase> step_phases(const ScheduleInputs& in, int ring_step);

// A run of consecutive phases [first, last) that the graph runner launches
// together: `captured` runs of device phases as one graph replayed on the
// stream of their first phase, the others one by one.
struct PhaseRun {
    std::size_t first = 0, last = 0;
    bool captured = false;
    Lane origin = Lane::Compute; // the stream a captured run is replayed on
    bool joins_halo = false;     // the capture must end with the halo stream joined
};

// How the graph runner splits `phases`: host phases run as they come; each
// run of device phases between them is captured. A run replayed on the
// halo stream runs beside the compute stream's work from outside the graph,
// which Join and every phase after it must follow: those run uncaptured.
std::vector<PhaseRun> graph_runs(const std::vector<Phase>& phases);

const char* phase_name(PhaseKind kind);
const char* lane_name(Lane lane);
// "begin@host pack@halo ...": a schedule in one line (tests, the timeline).
std::string describe(const std::vector<Phase>& phases);

} // namespace stencil
