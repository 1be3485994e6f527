// The run report: a per-phase table on stdout and the same as JSON.
#pragma once

#include "binding.hpp"
#include "config/check_reach.hpp"
#include "io/provenance.hpp"
#include "outputs/outputs.hpp"
#include "report/timing_trust.hpp"
#include "step/simulation.hpp"
#include "step/tuning.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace stencil {

struct PhaseStats {
    const char* name;
    double min = 0, avg = 0, max = 0; // ms per step over ranks
};

struct Report {
    Options options;
    RunPlan plan;
    Physics physics;
    std::array<int, 3> grid{}, dims{}, local_rank0{};
    int ranks = 1;
    std::string comm_mode, comm_reason, backend, revision;
    std::vector<std::string> devices; // distinct device names over ranks
    std::vector<PhaseStats> phases;   // pack, post, interior, wait, unpack, boundary, step
    LaunchShape shape;                // the interior wave kernel's launch shape on rank 0
    std::vector<ShapeChoice> shapes;  // rank 0's boxes: shape and where it came from
    bool graphs = false;              // steps replayed as captured graphs
    int steps_per_graph = 1;          // consecutive steps a graph holds, where it may hold several
    std::string subnormals;           // subnormal_handling(): flushed (HOST) or kept
    int omp_threads = 0;              // OpenMP threads per rank (0: left to the runtime, GPU)
    std::string omp_reason;           // why that many (ThreadTeam::reason)
    double gcells_total = 0, gcells_per_rank = 0, gbs_per_rank = 0;
    int phase_samples = 0; // the steps whose phases were timed (the step itself: every one)
    TimingTrust trust;     // the timed window, the step's spread across ranks
    OutputTimes outputs;   // the snapshots' and traces' writes (outputs.hpp)
    double halo_ms = 0;
    std::optional<double> hidden_fraction; // of the exchange, behind the interior
    std::string unhidden_why;              // why there is no such share, where there is none
    double halo_mib_per_step = 0;          // rank 0's messages, sent plus received, per exchange
    int halo_depth = 1;                    // one exchange every halo_depth steps
    int slab_x = 0;                        // rank 0's x boundary slabs, cells; 0: none
    double redundant_share = 0;    // of all cells updated, those updated again for a neighbour
    int faces = 0, self_faces = 0; // rank 0's halo faces, and those it is its own neighbour for
    std::string face_routes;       // how rank 0's six faces are filled ("-x peer, +x gpu-aware")
    int linked_faces = 0;          // of them, linked to a neighbour on the node
    bool fused_pack = false;       // rank 0's boundary kernels store its faces (no pack launch)
    bool fused_pack_applies =
        false;                     // the fused pack applies to rank 0 (all z faces: nothing stored)
    std::size_t pinned_bytes = 0;  // pinned host memory held, largest over ranks (0: no staging)
    std::string timeline;          // where --timeline was written ("" if not)
    bool checked = false;          // --check ran: the run against one domain
    long long cells_differing = 0; // of cells_checked, those not bit for bit equal
    long long cells_checked = 0;   // on rank 0
    CheckReach reach;              // the rank boundaries the check could see
    bool has_checksum = false;
    std::uint64_t checksum = 0;
    // Where the field came from (io/provenance.hpp): this run's and a
    // restart's inheritance, with the checks' verdict once they ran.
    Provenance provenance;
    // Whether the field is the one-domain answer: not with --comm none on
    // several ranks (a timing mode), a bug planted, a failed check, or a
    // checkpoint continued that was not.
    bool one_domain_answer() const { return provenance.one_domain_answer(); }
};

// Collective over the simulation's communicator; meaningful on rank 0.
Report summarize(const Simulation& sim, const RunContext& run, const Binding& binding,
                 const std::vector<ShapeChoice>& shapes);

void print_report(const Report& report);
// The NOTE lines on what the figures and the field are: not the one-domain
// answer (and why), test aids planted (not a measurement); under --quiet
// (`quiet`) only the second.
void print_notes(const Report& report, bool quiet);
// " [faults planted: AIDS; not a measurement]" where this run planted test
// aids, for the FOM line; else "".
std::string aids_mark(const Report& report);
// "checksum: HEX", with why the field is not the one-domain answer and the
// test aids that made it, where any.
std::string checksum_line(const Report& report);
// How rank 0's faces were packed ("fused", "separate" or "none") and why.
std::pair<const char*, std::string> halo_pack(const Report& report);
// The run's context as the JSON report and the --timeline file both give
// it: program, label, revision, back-end, devices, ranks and their grid,
// the problem's size and precision, the halo path, overlap, pack, depth,
// graphs, and the faults planted (--inject-fault, --poison-halo; null if none).
Json run_context_json(const Report& report);
// Writes the JSON report; returns an empty string or why it could not.
std::string write_json(const Report& report, const std::string& path);

} // namespace stencil
