#include "report/report.hpp"

#include "device.hpp"
#include "graph.hpp"
#include "halo_path.hpp"

#include "config/option_table.hpp"
#include "memory.hpp"
#include "stencil_version.hpp"

#include <algorithm>
#include <cstdio>
#include <set>
#include <utility>

namespace stencil {
namespace {

std::vector<std::string> gather_names(const std::string& mine, MPI_Comm comm, int rank, int size) {
    char name[128] = {0};
    std::snprintf(name, sizeof name, "%s", mine.c_str());
    std::vector<char> all(rank == 0 ? sizeof name * size : 0);
    MPI_CHECK(MPI_Gather(name, sizeof name, MPI_CHAR, all.data(), sizeof name, MPI_CHAR, 0, comm));
    std::set<std::string> distinct;
    for (int r = 0; rank == 0 && r < size; ++r)
        distinct.insert(all.data() + r * sizeof name);
    return {distinct.begin(), distinct.end()};
}

// Collective: the phases' min, average and max over the ranks (ms per
// step) into r.phases; this rank's own into `per_step`.
void phase_table(const PhaseTotals& t, MPI_Comm comm, int ranks, Report& r, double (&per_step)[7]) {
    const double steps = std::max(t.steps, 1), sampled = std::max(t.sampled, 1);
    const double mine[7] = {t.pack / sampled, t.post / sampled,   t.interior / sampled,
                            t.wait / sampled, t.unpack / sampled, t.boundary / sampled,
                            t.step / steps};
    std::copy(mine, mine + 7, per_step);
    r.phase_samples = t.sampled;
    const char* names[7] = {"pack", "post", "interior", "wait", "unpack", "boundary", "step"};
    double mins[7], maxs[7], sums[7];
    MPI_CHECK(MPI_Allreduce(per_step, mins, 7, MPI_DOUBLE, MPI_MIN, comm));
    MPI_CHECK(MPI_Allreduce(per_step, maxs, 7, MPI_DOUBLE, MPI_MAX, comm));
    MPI_CHECK(MPI_Allreduce(per_step, sums, 7, MPI_DOUBLE, MPI_SUM, comm));
    for (int p = 0; p < 7; ++p)
        r.phases.push_back({names[p], mins[p], sums[p] / ranks, maxs[p]});
}

// Collective: the exchange's time per step, and how much of it the interior kernel hid (what
// the step spent beyond its kernels is the exchange's exposed part), averaged over the ranks.
// A share hidden means something only where the exchange runs beside the interior: with
// overlap off, on the HOST back-end (its phases run in order) or with nothing exchanged the
// report says why there is none instead of a number.
void exchange_times(const double (&per_step)[7], MPI_Comm comm, int ranks, Report& r) {
    const double halo = per_step[0] + per_step[1] + per_step[3] + per_step[4];
    const double exposed = std::clamp(per_step[6] - per_step[2] - per_step[5], 0.0, halo);
    const double hidden = halo > 0 ? 1.0 - exposed / halo : 0.0;
    double sum_hidden = 0, sum_halo = 0;
    MPI_CHECK(MPI_Allreduce(&hidden, &sum_hidden, 1, MPI_DOUBLE, MPI_SUM, comm));
    MPI_CHECK(MPI_Allreduce(&halo, &sum_halo, 1, MPI_DOUBLE, MPI_SUM, comm));
    r.halo_ms = sum_halo / ranks;
    const RoutePlan routes = route_plan(r.options, r.plan);
    r.unhidden_why = routes.moves_nothing() ? "--comm none"
                     : sum_halo == 0 && routes.links_faces()
                         ? std::string("--comm ") + routes.link_name() +
                               ": the update kernels store the faces into the "
                               "neighbours' halos; nothing travels as a message"
                     : sum_halo == 0       ? "nothing exchanged"
                     : !r.plan.overlap     ? "overlap off"
                     : r.backend == "HOST" ? "the HOST back-end runs the phases in order"
                                           : "";
    if (r.unhidden_why.empty()) r.hidden_fraction = sum_hidden / ranks;
}

} // namespace

Report summarize(const Simulation& sim, const RunContext& run, const Binding& binding,
                 const std::vector<ShapeChoice>& shapes) {
    const Options& options = run.options;
    const Decomposition& d = sim.decomposition();
    const PhaseTotals& t = sim.totals();
    MPI_Comm comm = d.cart.get();
    Report r;
    r.options = options;
    r.plan = run.plan;
    r.physics = run.physics;
    r.grid = d.global;
    r.dims = d.dims;
    r.local_rank0 = d.local;
    r.ranks = d.size;
    r.comm_mode = comm_mode_name(run.plan.comm_mode);
    r.comm_reason = run.plan.comm_reason;
    r.backend = backend_name();
    r.revision = STENCIL_REVISION_STRING;
    r.devices = gather_names(binding.info.name, comm, d.rank, d.size);
    r.shape = sim.interior_shape();
    r.shapes = shapes;
    r.graphs = sim.graphs();
    r.steps_per_graph = sim.steps_per_graph();
    r.subnormals = subnormal_handling();
    r.omp_threads = binding.team.threads;
    r.omp_reason = binding.team.reason;

    double per_step[7];
    phase_table(t, comm, d.size, r, per_step);
    // The slowest rank sets the pace of every step.
    const double global_cells = double(d.global[0]) * d.global[1] * d.global[2];
    const double step_s = r.phases.back().max * 1e-3;
    r.trust.steps = t.steps;
    r.trust.first_step = sim.steps_done() - t.steps;
    r.trust.window_s = step_s * t.steps;
    r.trust.step_min_ms = r.phases.back().min;
    r.trust.step_max_ms = r.phases.back().max;
    r.gcells_total = step_s > 0 ? global_cells / step_s * 1e-9 : 0;
    r.gcells_per_rank = r.gcells_total / d.size;
    // Minimal bytes of the wave update: p, p_prev and dt^2 c^2 read, p_next
    // written, four values of the run's precision per cell.
    r.gbs_per_rank = r.gcells_per_rank * 4.0 * element_bytes(options.precision);
    exchange_times(per_step, comm, d.size, r);
    r.halo_mib_per_step = sim.halo_bytes_per_step() / 1048576.0;
    r.halo_depth = sim.halo_depth();
    r.slab_x = sim.slab_x();
    double cells[2], sums_cells[2];
    sim.updated_cells(cells[0], cells[1]);
    MPI_CHECK(MPI_Allreduce(cells, sums_cells, 2, MPI_DOUBLE, MPI_SUM, comm));
    r.redundant_share = sums_cells[0] > 0 ? 1.0 - sums_cells[1] / sums_cells[0] : 0;
    r.faces = sim.halo_faces(r.self_faces);
    const Simulation::FaceRouteSummary routes = sim.face_routes();
    r.face_routes = routes.text, r.linked_faces = routes.linked;
    r.fused_pack = sim.fused_pack();
    r.fused_pack_applies = sim.fused_pack_applies();
    unsigned long long pinned = detail::pinned_bytes_in_use(), most = 0;
    MPI_CHECK(MPI_Allreduce(&pinned, &most, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, comm));
    r.pinned_bytes = most;
    return r;
}

// How the faces were packed (fused, separate or none) and why: the plan's reason, unless it
// asked for the fused pack where that does not apply, or nothing is packed.
std::pair<const char*, std::string> halo_pack(const Report& r) {
    if (route_plan(r.options, r.plan).moves_nothing())
        return {"none", "--comm none exchanges nothing"};
    if (r.faces == 0) return {"none", "rank 0 has no halo face"};
    if (r.fused_pack) return {"fused", r.plan.pack_reason};
    if (!r.plan.fused_pack) return {"separate", r.plan.pack_reason};
    if (r.fused_pack_applies)
        return {"none", "rank 0's faces are z faces, sent whole and in place"};
    return {"separate", fused_pack_needs()};
}

namespace {

// The report's first lines: the job, the problem, the halo exchange.
void print_problem(const Report& r) {
    const Options& c = r.options;
    std::printf("\nstencil-miniapp: %s back-end, %d rank%s (%d x %d x %d), device %s\n",
                r.backend.c_str(), r.ranks, r.ranks == 1 ? "" : "s", r.dims[0], r.dims[1],
                r.dims[2], r.devices.empty() ? "?" : r.devices.front().c_str());
    std::printf("  OpenMP threads per rank: %s (%s)\n",
                r.omp_threads > 0 ? std::to_string(r.omp_threads).c_str() : "not set",
                r.omp_reason.c_str());
    std::printf("  grid %d x %d x %d, periodic %s, R=%d (order %d), %s, %d steps (after %d "
                "warm-up, undone), "
                "dt=%.4g s, f0=%.3g Hz\n",
                r.grid[0], r.grid[1], r.grid[2], periodic_axes(c.periodic).c_str(), c.radius,
                2 * c.radius, precision_name(c.precision), c.steps, c.warmup, r.physics.dt,
                r.physics.f0);
    char speeds[64];
    std::snprintf(speeds, sizeof speeds, r.physics.c_min == r.physics.c_max ? "%g" : "%g-%g",
                  r.physics.c_min, r.physics.c_max);
    std::printf("  model %s, %s m/s, spacing %g m, sponge %d cells\n",
                model_name(c, r.plan).c_str(), speeds, c.spacing, c.sponge);
    std::printf("  comm %s (%s), halo %.2f MiB per exchange on rank 0, pinned host buffers %zu "
                "bytes\n",
                r.comm_mode.c_str(), r.comm_reason.c_str(), r.halo_mib_per_step, r.pinned_bytes);
    std::printf("  overlap %s (%s)\n", r.plan.overlap ? "on" : "off",
                r.plan.overlap_reason.c_str());
    std::printf("  halo depth %d (%s): one exchange every %d step%s, %.1f%% of the cells updated "
                "are neighbours' (redundant)\n",
                r.halo_depth, r.plan.halo_depth_reason.c_str(), r.halo_depth,
                r.halo_depth == 1 ? "" : "s", 100 * r.redundant_share);
    if (r.self_faces > 0)
        std::printf("  %d of rank 0's %d halo messages are to itself (periodic): %s, not sent\n",
                    r.self_faces, r.faces,
                    r.fused_pack_applies ? "stored across the box by the update"
                                         : "copied on the device");
    if (const RoutePlan routes = route_plan(r.options, r.plan); routes.links_faces()) {
        const std::string linked =
            r.linked_faces == 0
                ? " (none linked to another rank of this node)"
                : std::string(" (") + routes.link_name() + ": stored into the neighbour's halo)";
        std::printf("  rank 0's faces: %s%s\n",
                    r.face_routes.empty() ? "none" : r.face_routes.c_str(), linked.c_str());
    }
    const auto [pack, why] = halo_pack(r);
    std::printf("  halo pack %s (%s)\n", pack, why.c_str());
    print_trials(r.plan.trials);
}

// Why rank 0's x slabs ran as wide as they did: --slab-x as asked, raised
// to the halo's depth or capped at the box, or auto's rule.
std::string slab_x_reason(const Report& r) {
    const Options& c = r.options;
    const std::string asked = "--slab-x " + std::to_string(c.slab_x);
    if (c.slab_x == r.slab_x) return "--slab-x";
    if (c.slab_x > r.slab_x) return asked + ", capped: the slabs fill the box";
    if (c.slab_x > 0) return asked + ", raised to the halo's depth";
    return r.slab_x > r.halo_depth * c.radius ? "auto: a 128-byte line of cells"
                                              : "auto: the halo's depth";
}

// How the steps were launched: graphs, the kernels' shapes, tuning.
void print_launches(const Report& r) {
    const Options& c = r.options;
    const char* graphs_why = c.graphs != GraphChoice::Auto ? "--graphs"
                             : !graphs_available()         ? "auto: this build has none"
                             : r.graphs ? "auto: a step with NCCL or no MPI message"
                                        : "auto: MPI exchanges run faster as plain launches";
    std::string chunks;
    if (r.steps_per_graph > 1)
        chunks = ", " + std::to_string(r.steps_per_graph) + " steps a " +
                 (r.graphs ? "graph" : "batch") + " (--steps-per-graph)";
    std::printf("  graphs %s (%s)%s; %s\n", r.graphs ? "on" : "off", graphs_why, chunks.c_str(),
                r.subnormals.c_str());
    const char* body_why = c.shape.body != WaveBody::Auto ? "--update"
                           : c.shape.names_tile_fields()  ? "a tile's shape asked for"
                                                          : "chosen for the box";
    if (r.backend == "HOST")
        std::printf("  update body: %s (%s)\n", wave_body_name(r.shape.body), body_why);
    else if (r.shape.body == WaveBody::Cells)
        std::printf("  interior kernel: cells (%s), %d x %d threads, one 16-byte group of %d "
                    "plane%s each (%s)\n",
                    body_why, r.shape.block_x, r.shape.block_y, r.shape.window,
                    r.shape.window == 1 ? "" : "s",
                    c.shape.window ? "--window" : "chosen for the box");
    else
        std::printf("  interior kernel: tile (%s), %d x %d threads, %d row%s per thread, %d-plane "
                    "z window (%s), loads %d plane%s ahead\n",
                    body_why, r.shape.block_x, r.shape.block_y, r.shape.rows,
                    r.shape.rows == 1 ? "" : "s", r.shape.window,
                    c.shape.window ? "--window" : "chosen for the box", r.shape.ahead,
                    r.shape.ahead == 1 ? "" : "s");
    if (r.plan.overlap && r.slab_x > 0)
        std::printf("  x boundary slabs: %d cells (%s)\n", r.slab_x, slab_x_reason(r).c_str());
    if (r.backend != "HOST" && c.tuning_mode != "off")
        for (const ShapeChoice& sc : r.shapes)
            std::printf("  tuning %s: box %d x %d x %d: %s (%s)\n", c.tuning_mode.c_str(),
                        sc.extents[0], sc.extents[1], sc.extents[2],
                        shape_summary(sc.shape).c_str(), shape_source_name(sc.source));
    print_notes(r, false);
}

} // namespace

void print_notes(const Report& r, bool quiet) {
    if (!quiet && !r.one_domain_answer()) {
        std::string why;
        for (const std::string& reason : r.provenance.not_one_domain)
            why += (why.empty() ? "" : "; ") + reason;
        std::printf("  NOTE: the field is not the one-domain answer (%s)\n", why.c_str());
    }
    if (const std::string planted = r.options.aids.planted(); !planted.empty())
        std::printf("  NOTE: faults planted (%s): not a measurement\n", planted.c_str());
}

std::string aids_mark(const Report& r) {
    const std::string planted = r.options.aids.planted();
    return planted.empty() ? "" : " [faults planted: " + planted + "; not a measurement]";
}

std::string checksum_line(const Report& r) {
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", (unsigned long long)r.checksum);
    std::string line = std::string("checksum: ") + hex;
    if (!r.one_domain_answer()) line += " (" + r.provenance.not_one_domain_text() + ")";
    if (const std::string aids = r.provenance.aids_text(); !aids.empty())
        line += " [test aids: " + aids + "]";
    return line;
}

void print_report(const Report& r) {
    const Options& c = r.options;
    print_problem(r);
    print_launches(r);
    std::printf(
        "\n  phase        min ms     avg ms     max ms   (per step, over ranks; phases: the "
        "mean of %d sampled steps, one in %d)\n",
        r.phase_samples, kPhaseSampling);
    for (const PhaseStats& p : r.phases)
        std::printf("  %-9s %9.4f  %9.4f  %9.4f\n", p.name, p.min, p.avg, p.max);
    // A phase's events keep the device from starting the kernel after them
    // early, which a step of a few microseconds notices: on one H100 at
    // 64^3, four steps a graph, a sampled update read 5.95 us of a 5.27 us
    // step (docs/data/small-box-body-2026-12-06/).
    if (r.phases.size() == 7 && r.phases[2].avg > r.phases[6].avg)
        std::printf("  (the interior's events stretch its sampled steps past an average "
                    "step: the step, timed every step, is the measure)\n");
    std::printf("\n  Gcell/s: %.3f total, %.3f per rank; effective %.1f GB/s per rank\n",
                r.gcells_total, r.gcells_per_rank, r.gbs_per_rank);
    if (r.hidden_fraction)
        std::printf("  exchange %.4f ms per step, %.0f%% hidden behind the interior kernel\n",
                    r.halo_ms, 100 * *r.hidden_fraction);
    else
        std::printf("  exchange %.4f ms per step, none overlapped (%s)\n", r.halo_ms,
                    r.unhidden_why.c_str());
    print_timing_trust(r.trust);
    if (!r.timeline.empty())
        std::printf("  timeline: %s (the first sampled steps, every rank; ui.perfetto.dev)\n",
                    r.timeline.c_str());
    std::printf("FOM: %.4f Gcell/s (R=%d, %s, %d rank%s, grid %dx%dx%d, comm %s, overlap %s, "
                "halo depth %d)%s\n",
                r.gcells_total, c.radius, precision_name(c.precision), r.ranks,
                r.ranks == 1 ? "" : "s", r.grid[0], r.grid[1], r.grid[2], r.comm_mode.c_str(),
                r.plan.overlap ? "on" : "off", r.halo_depth, aids_mark(r).c_str());
}

} // namespace stencil
