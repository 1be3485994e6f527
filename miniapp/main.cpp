// stencil-miniapp: distributed acoustic wave propagation with an order-2R
// stencil, one subdomain per GPU, halos exchanged behind the interior kernel.
#include "binding.hpp"
#include "config/memory_check.hpp"
#include "config/model_file.hpp"
#include "config/options.hpp"
#include "config/warnings.hpp"
#include "driver.hpp"
#include "gpu_aware.hpp"
#include "gpu_runtime.hpp"
#include "io/checked_io.hpp"
#include "nccl_comm.hpp"
#include "outputs/outputs.hpp"
#include "preflight.hpp"
#include "report/report.hpp"
#include "restart/checkpoint.hpp"
#include "restart/stop_request.hpp"
#include "step/halo_depth.hpp"
#include "step/simulation.hpp"
#include "step/tuning.hpp"

#include <mpi.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace stencil {
namespace {

// A verdict every rank has reached together (from the same input, or agreed
// over MPI): rank 0 alone prints it and every rank exits with `status`,
// without MPI_Abort.
int fail_together(const std::string& message, int status) {
    if (world_rank() == 0) std::fprintf(stderr, "stencil-miniapp: %s\n", message.c_str());
    return status;
}

// A user error: exit status 2.
int refuse(const std::string& message) {
    return fail_together(message, 2);
}

// The process grid and global grid from --grid/--local/--procs, or why not.
std::string resolve_grid(Config& c, std::array<int, 3>& procs) {
    const int ranks = world_size();
    const bool given = c.procs[0] > 0;
    if (given && c.procs[0] * c.procs[1] * c.procs[2] != ranks)
        return "--procs " + std::to_string(c.procs[0]) + "," + std::to_string(c.procs[1]) + "," +
               std::to_string(c.procs[2]) + " makes " +
               std::to_string(c.procs[0] * c.procs[1] * c.procs[2]) + " ranks, but the job has " +
               std::to_string(ranks);
    procs = process_grid(ranks, c.procs);
    if (c.local[0] > 0)
        for (int a = 0; a < 3; ++a)
            c.grid[a] = c.local[a] * procs[a];
    if (const std::string why = check_split(c.grid, procs, c.radius, c.periodic); !why.empty())
        return why;
    // A chosen depth must fit every rank: its neighbours' halos are k*R of it.
    const int k = c.halo_depth;
    if (k > 1)
        return check_split(c.grid, procs, k * c.radius, c.periodic,
                           "the halo depth " + std::to_string(k) +
                               "*R=" + std::to_string(k * c.radius));
    return {};
}

// Rank 0 tries the report's path now rather than after an hour of compute,
// through the partial name the report is written under (so no empty report
// is left behind); the verdict is broadcast so that every rank refuses
// together.
std::string check_report_writable(const Config& c) {
    std::string why;
    if (world_rank() == 0 && !c.report.empty()) {
        const std::string probe = partial_path(c.report);
        std::error_code ignored;
        if (std::filesystem::is_directory(c.report, ignored))
            why = "--report " + c.report + ": a directory; name a file, such as " + c.report +
                  "/report.json";
        else if (std::FILE* f = std::fopen(probe.c_str(), "w"))
            std::fclose(f), std::remove(probe.c_str());
        else
            why = "--report " + c.report + ": cannot write there (" + std::strerror(errno) + ")";
    }
    return first_problem(MPI_COMM_WORLD, why);
}

// The halo path for --comm, and why; an empty string, or why it cannot be had.
std::string choose_comm_mode(CommChoice choice, const GpuAwareness& aware, CommMode& mode,
                             std::string& reason) {
    switch (choice) {
    case CommChoice::None:
        mode = CommMode::None, reason = "requested; no halos move";
        return {};
    case CommChoice::Staged:
        mode = CommMode::Staged, reason = "requested";
        return {};
    case CommChoice::Nccl:
        if (!STENCIL_HAS_GPU)
            return "--comm nccl: NCCL/RCCL move GPU memory, and this is the HOST back-end; use "
                   "--comm auto";
        if (!nccl_available())
            return std::string("--comm nccl: this ") + backend_name() +
                   " build has no NCCL/RCCL: CMake found no nccl.h (set NCCL_HOME, or ROCM_PATH "
                   "for RCCL, and configure again; README, \"Building\")";
        mode = CommMode::Nccl, reason = "requested; NCCL/RCCL on the halo stream";
        return {};
    case CommChoice::GpuAware:
        if (!aware.supported)
            return "--comm gpu-aware: the MPI library is not GPU-aware (" + aware.reason +
                   "); use --comm staged, or set STENCIL_GPU_AWARE_MPI=1 if you know better";
        mode = CommMode::GpuAware, reason = aware.reason;
        return {};
    case CommChoice::Auto:
        mode = aware.supported ? CommMode::GpuAware : CommMode::Staged;
        reason = std::string("auto: ") + (aware.supported ? "" : "staged, since ") + aware.reason;
        return {};
    }
    return "unknown --comm choice";
}

// --check: the same problem on one domain, on rank 0, compared bit for bit.
bool matches_one_domain(const Simulation& sim, const Config& c, const Physics& physics,
                        CommMode mode) {
    // Gathered widened to double, which is exact: equal doubles are equal
    // values in the run's precision, bit for bit.
    const std::vector<double> distributed = sim.gather();
    long long differing = -1;
    if (world_rank() == 0) {
        // One periodic domain exchanges with itself, so the reference must
        // not share what is under test: no planted bug, and NCCL's exchange
        // checked against MPI's (staged, which every MPI can do).
        Config clean = c;
        clean.drop_face = clean.short_ring = false;
        clean.halo_depth = 1; // exchanged every step: not what is under test
        const CommMode reference_mode = mode == CommMode::Nccl ? CommMode::Staged : mode;
        const auto single =
            make_simulation(clean, physics, c.grid, {1, 1, 1}, MPI_COMM_SELF, reference_mode);
        single->run(sim.steps_done(), false);
        const std::vector<double> reference = single->gather();
        differing = 0;
        for (std::size_t n = 0; n < reference.size(); ++n)
            differing += std::memcmp(&reference[n], &distributed[n], sizeof(double)) != 0;
        std::printf("check: %lld of %zu cells differ from the one-domain run%s\n", differing,
                    reference.size(), differing ? "" : " (bitwise equal)");
    }
    MPI_CHECK(MPI_Bcast(&differing, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD));
    return differing == 0;
}

// --preflight: a face to each neighbour and back, device and staged.
bool preflight_ok(const Simulation& sim, const GpuAwareness& aware) {
    const PreflightResult pre =
        run_preflight(sim.decomposition(), aware, sim.largest_face_bytes() / sizeof(float));
    if (world_rank() == 0) std::printf("%s", pre.report.c_str());
    if (!pre.ok && world_rank() == 0)
        std::fprintf(stderr, "stencil-miniapp: preflight: a message came back wrong\n");
    return pre.ok;
}

// After the run: the report (printed, and written as JSON), the checksum,
// and the checks asked for. Returns this rank's exit status.
int report_and_check(Simulation& sim, const Config& c, const Physics& physics, CommMode mode,
                     Report report) {
    int status = 0;
    if (c.checksum) {
        report.has_checksum = true;
        report.checksum = sim.checksum();
    }
    if (world_rank() == 0) {
        if (c.quiet) {
            std::printf("FOM: %.4f Gcell/s\n", report.gcells_total);
        } else {
            print_report(report);
        }
        if (c.checksum) std::printf("checksum: %016" PRIx64 "\n", report.checksum);
        if (!c.report.empty())
            if (const std::string why = write_json(report, c.report); !why.empty()) {
                std::fprintf(stderr, "stencil-miniapp: %s\n", why.c_str());
                status = 1;
            }
    }
    if (c.check && !matches_one_domain(sim, c, physics, mode)) status = 1;
    if (c.poison_halo && !sim.all_finite()) {
        if (world_rank() == 0)
            std::fprintf(stderr, "stencil-miniapp: a poisoned halo cell reached the field\n");
        status = 1;
    }
    return status;
}

int run(int argc, char** argv) {
    Config c;
    const std::string parsed = parse_options(argc, argv, c);
    if (parsed == "help") {
        if (world_rank() == 0) std::fputs(usage().c_str(), stdout);
        return 0;
    }
    if (parsed == "help-markdown") {
        if (world_rank() == 0) std::fputs(help_markdown().c_str(), stdout);
        return 0;
    }
    if (!parsed.empty()) return refuse(parsed + " (try --help)");
    std::array<int, 3> procs{};
    if (const std::string why = resolve_grid(c, procs); !why.empty()) return refuse(why);
    Physics physics;
    if (c.model == ModelKind::File)
        if (const std::string why = check_model_file(c, physics.c_min, physics.c_max); !why.empty())
            return refuse(why);
    if (const std::string why = resolve_physics(c, c.grid, physics); !why.empty())
        return refuse(why);
    if (const std::string why = check_report_writable(c); !why.empty()) return refuse(why);
    OutputFolderLock folder_lock; // held by rank 0 until the run ends; left behind if it dies
    if (const std::string why = prepare_outputs(c, folder_lock); !why.empty()) return refuse(why);
    remove_on_immediate_exit(folder_lock.path()); // a second stop signal leaves no lock either
    print_warnings(input_warnings(c, physics));

    const GpuAwareness aware = detect_gpu_aware_mpi();
    CommMode mode = CommMode::Staged;
    std::string reason;
    if (const std::string why = choose_comm_mode(c.comm, aware, mode, reason); !why.empty())
        return refuse(why);

    const Binding binding = bind_to_device(MPI_COMM_WORLD); // after MPI_Init, before any allocation
    if (const std::string why = check_memory(c, procs, binding); !why.empty()) return refuse(why);
    if (c.print_binding) {
        const std::string table = binding_table(binding, MPI_COMM_WORLD);
        if (world_rank() == 0) std::printf("%s", table.c_str());
    }

    const HaloDepthChoice depth = choose_halo_depth(c, physics, procs, mode);
    c.halo_depth = depth.depth, c.halo_depth_reason = depth.reason;
    const auto simulation = make_simulation(c, physics, c.grid, procs, MPI_COMM_WORLD, mode);
    Simulation& sim = *simulation;
    const std::vector<ShapeChoice> shapes = apply_tuning(sim, sim.decomposition(), c);
    if (c.preflight && !preflight_ok(sim, aware)) return 1;
    Outputs outputs(c, physics, sim);
    DriveResult outcome;
    try {
        outcome = drive(sim, c, physics, outputs);
    } catch (const OutputFailure& failure) { // thrown on every rank together
        return fail_together(failure.what(), 1);
    }
    if (!outcome.refused.empty()) return refuse(outcome.refused);
    if (outcome.stopped) {
        const std::string saved =
            outcome.checkpoint.empty()
                ? "no checkpoint (--checkpoint-every is 0), so it cannot be resumed"
                : "checkpoint " + outcome.checkpoint + " written; resume with --restart latest";
        return fail_together("stopped by " + outcome.stop_signal + " at step " +
                                 std::to_string(outcome.stop_step) + "; " + saved,
                             kStoppedExitStatus);
    }
    if (!outcome.stable) {
        if (world_rank() == 0)
            std::fprintf(
                stderr,
                "stencil-miniapp: unstable: NaN or Inf in the field at step %d, first on rank %d "
                "(dt=%.4g s, limit %.4g s)\n",
                outcome.bad_step, outcome.bad_rank, physics.dt, physics.dt_limit);
        return 1;
    }

    if (outcome.checkpoints > 0 && world_rank() == 0 && !c.quiet)
        std::printf("checkpoints: %d written to %s, %.3f s each (%.2f GB/s), %.4f s per step "
                    "over the run's %d steps\n",
                    outcome.checkpoints, checkpoint_folder(c).c_str(),
                    outcome.checkpoint_seconds / outcome.checkpoints,
                    outcome.checkpoint_bytes / outcome.checkpoint_seconds * 1e-9,
                    outcome.checkpoint_seconds / std::max(1, outcome.steps_run), outcome.steps_run);
    int status = report_and_check(sim, c, physics, mode,
                                  summarize(sim, c, physics, mode, reason, binding, shapes));
    MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &status, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
    return status;
}

} // namespace
} // namespace stencil

int main(int argc, char** argv) {
    // Before MPI_Init, which can take seconds at scale: Slurm's warning
    // signal may come that early, and would otherwise kill the rank.
    stencil::install_stop_handlers();
    return stencil::run_mpi_program("stencil-miniapp", argc, argv, stencil::run);
}
