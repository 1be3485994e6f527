// stencil-miniapp: distributed acoustic wave propagation with an order-2R
// stencil, one subdomain per GPU, halos exchanged behind the interior kernel.
#include "binding.hpp"
#include "config/check_reach.hpp"
#include "config/option_agreement.hpp"
#include "config/options.hpp"
#include "config/run_plan.hpp"
#include "config/warnings.hpp"
#include "driver.hpp"
#include "gpu_aware.hpp"
#include "halo_path.hpp"
#include "io/checked_io.hpp"
#include "io/output_folder.hpp"
#include "outputs/outputs.hpp"
#include "preflight.hpp"
#include "prepare.hpp"
#include "report/report.hpp"
#include "report/timeline_file.hpp"
#include "restart/checkpoint.hpp"
#include "restart/stop_request.hpp"
#include "stencil_version.hpp"
#include "step/simulation.hpp"
#include "step/speed_check.hpp"
#include "step/tuning.hpp"
#include "testing/step_aids.hpp"

#include <mpi.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <memory>
#include <utility>

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

// --check: the same problem on one domain, on rank 0, compared bit for bit;
// the cells that differ (every rank gets the count) and the cells compared.
long long cells_unlike_one_domain(const Simulation& sim, const RunContext& run,
                                  long long& compared) {
    const Options& c = run.options;
    const RunPlan& plan = run.plan;
    const Physics& physics = run.physics;
    // Gathered widened to double, which is exact: equal doubles are equal
    // values in the run's precision, bit for bit.
    const std::vector<double> distributed = sim.gather();
    long long differing = -1;
    if (world_rank() == 0) {
        // One periodic domain exchanges with itself, so the reference must
        // not share what is under test: no planted bug, no overlap, and
        // NCCL's exchange checked against MPI's (staged, which every MPI
        // can do).
        RunPlan one = plan;
        one.procs = {1, 1, 1};
        one.aids = plan.aids.without_exchange_bugs();
        one.halo_depth = 1; // exchanged every step: not what is under test
        // One whole-box update after an unfused exchange: neither the slabs
        // nor the fused pack, which a periodic domain would otherwise share.
        one.overlap = false, one.fused_pack = false;
        one.comm_mode = reference_path(one.comm_mode);
        const TestAidHooks reference_aids(one.aids);
        const auto single =
            make_simulation({c, one, physics}, MPI_COMM_SELF, reference_aids.where_asked());
        single->run(sim.steps_done(), false);
        const std::vector<double> reference = single->gather();
        differing = 0;
        for (std::size_t n = 0; n < reference.size(); ++n)
            differing += std::memcmp(&reference[n], &distributed[n], sizeof(double)) != 0;
        compared = (long long)reference.size();
        std::printf("check: %lld of %lld cells differ from the one-domain run%s\n", differing,
                    compared, differing ? "" : " (bitwise equal)");
    }
    MPI_CHECK(MPI_Bcast(&differing, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD));
    return differing;
}

// This run's own provenance (io/provenance.hpp), before step 1: --comm
// none on several ranks moves no halo between them, a bug planted on some
// rank changes the field, and every test aid asked for is named.
Provenance own_provenance(const RunContext& run, const TestAidHooks& hooks) {
    Provenance own;
    if (route_plan(run.options, run.plan).moves_nothing() && world_size() > 1)
        own.add_reason("--comm none: no message moved between ranks");
    for (const std::string& bug : hooks.field_bugs()) // collective
        own.add_reason(bug + " planted a bug in the field");
    for (const std::string& aid : run.plan.aids.planted_list())
        own.add_aid(aid);
    own.check = run.options.check ? "pending" : "none";
    return own;
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

// After the run, before the report is written (so that it says whether
// the run passed): --check, and --poison-halo's look for a poisoned cell,
// each verdict in the field's provenance. Collective; this rank's status.
int run_checks(const Simulation& sim, const RunContext& run, Report& report) {
    const Options& c = run.options;
    int status = 0;
    if (c.check) {
        report.checked = true;
        report.cells_differing = cells_unlike_one_domain(sim, run, report.cells_checked);
        if (report.cells_differing != 0) status = 1;
        report.provenance.set_check(report.cells_differing == 0,
                                    "--check: " + std::to_string(report.cells_differing) + " of " +
                                        std::to_string(report.cells_checked) +
                                        " cells differ from the one-domain run");
        report.reach =
            check_reach(run.plan, c.periodic, run.physics.source, c.radius, sim.steps_done());
        if (report.reach.reached < report.reach.boundaries && world_rank() == 0)
            std::printf("check: the wave reached %d of the %d rank faces (a rank's halo from one "
                        "neighbour) in %d steps: a halo bug at the others could not show "
                        "(--steps %d reaches all)\n",
                        report.reach.reached, report.reach.boundaries, sim.steps_done(),
                        report.reach.steps_for_all);
    }
    if (run.plan.aids.poison_halo() && !sim.all_finite()) { // test aid
        if (world_rank() == 0)
            std::fprintf(stderr, "stencil-miniapp: a poisoned halo cell reached the field\n");
        report.provenance.set_check(false, "--poison-halo: a poisoned halo cell reached the field");
        status = 1;
    }
    return status;
}

// After the run: the checks asked for, then the report (printed, and
// written as JSON) and the checksum, each marked where test aids were
// planted or the field is not the one-domain answer. Returns this rank's
// exit status; `failed`: whether the run's own checks failed.
int report_and_check(Simulation& sim, const RunContext& run, Report& report, bool& failed) {
    const Options& c = run.options;
    if (c.checksum) {
        report.has_checksum = true;
        report.checksum = sim.checksum();
    }
    int status = run_checks(sim, run, report);
    failed = status != 0;
    if (world_rank() == 0) {
        if (c.quiet) {
            std::printf("FOM: %.4f Gcell/s%s\n", report.gcells_total, aids_mark(report).c_str());
            print_notes(report, true);
        } else {
            print_report(report);
        }
        if (c.checksum) std::printf("%s\n", checksum_line(report).c_str());
        if (!c.report.empty())
            if (const std::string why = write_json(report, c.report); !why.empty()) {
                std::fprintf(stderr, "stencil-miniapp: %s\n", why.c_str());
                status = 1;
            }
    }
    return status;
}

// The speed check (step/speed_check.hpp) before the warm-up, where an auto
// choice timed the run's setting and a warm-up is asked for: a simulation
// whose steps stay slower than that trial is made anew, but never one
// whose test aids' hook has seen it set up.
SpeedCheck check_run_speed(std::unique_ptr<Simulation>& sim, const RunContext& run,
                           const StepHookMaker* hooks) {
    SpeedCheck skipped; // the timed steps are still compared with the trial
    skipped.trial_ms = run.plan.trial_step_ms;
    if (run.options.warmup <= 0) return skipped;
    std::function<std::unique_ptr<Simulation>()> make;
    if (!hooks) make = [&run] { return make_simulation(run, MPI_COMM_WORLD, nullptr); };
    return check_speed(sim, run.plan.trial_step_ms, make, stop_signal_seen);
}

// The exit status of a run that did not reach its last step (a refused
// restart, a stop signal, a NaN or Inf), said on stderr and in the output
// folder's record; -1 if it did. `report`: the --report path, which a
// stopped run leaves unwritten (its figures would be of part of a run),
// and says so.
int unfinished_status(const DriveResult& outcome, const Physics& physics, const std::string& report,
                      Outputs& outputs) {
    if (outcome.stopped) outputs.ended("stopped", outcome.stop_step, outcome.checkpoint);
    if (!outcome.stable) outputs.ended("failed", outcome.bad_step);
    if (!outcome.refused.empty()) return refuse(outcome.refused);
    if (outcome.stopped) {
        const std::string saved =
            outcome.checkpoint.empty()
                ? "no checkpoint (--checkpoint-every is 0), so it cannot be resumed"
                : "checkpoint " + outcome.checkpoint + " written; resume with --restart latest";
        const std::string unreported =
            report.empty() ? "" : "; no report: " + report + " is written by a finished run";
        return fail_together("stopped by " + outcome.stop_signal + " at step " +
                                 std::to_string(outcome.stop_step) + "; " + saved + unreported,
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
    return -1;
}

// "9.5 s", "1h30m00s": a wall time as a person reads it.
std::string seconds_text(double seconds) {
    char text[64];
    if (seconds < 60) {
        std::snprintf(text, sizeof text, "%.3g s", seconds);
    } else { // whole seconds past 2^31 too
        const long long s = std::llround(std::min(seconds, 9e18));
        std::snprintf(text, sizeof text, "%lldh%02lldm%02llds", s / 3600, s / 60 % 60, s % 60);
    }
    return text;
}

// Rank 0's line on the checkpoints the run wrote, if any; a warning where
// --checkpoint-every TIME was longer than the run (known only now).
void print_checkpoints(const Options& c, const DriveResult& outcome, double run_seconds) {
    if (c.checkpoint_seconds > 0 && outcome.checkpoints == 0)
        print_warnings({"--checkpoint-every " + seconds_text(c.checkpoint_seconds) +
                        " was longer than the run (" + seconds_text(run_seconds) +
                        "): no checkpoint was written"});
    if (outcome.checkpoints > 0 && world_rank() == 0 && !c.quiet)
        std::printf("checkpoints: %d written to %s, %.3f s each (%.2f GB/s), %.4f s per step "
                    "over the run's %d steps\n",
                    outcome.checkpoints, checkpoint_folder(c).c_str(),
                    outcome.checkpoint_seconds / outcome.checkpoints,
                    outcome.checkpoint_bytes / outcome.checkpoint_seconds * 1e-9,
                    outcome.checkpoint_seconds / std::max(1, outcome.steps_run), outcome.steps_run);
}

// Rank 0: --help, --help-markdown or --version, as parse_options named it.
void print_page(const std::string& asked) {
    const std::string page = asked == "help" ? usage()
                             : asked == "help-markdown"
                                 ? help_markdown()
                                 : std::string("stencil-miniapp ") + STENCIL_VERSION_STRING + "\n";
    if (world_rank() == 0) std::fputs(page.c_str(), stdout);
}

// The options, the same on every rank, into `typed`: -1 to go on, else the
// exit status (--help printed, or one line refusing them).
int read_options(int argc, char** argv, Options& typed) {
    // First: a rank given other options would wait in a collective the
    // others never reach, or compute another problem.
    if (const std::string why = options_differ_across_ranks(argc, argv); !why.empty())
        return refuse(why);
    const std::string parsed = parse_options(argc, argv, typed);
    if (parsed == "help" || parsed == "help-markdown" || parsed == "version") {
        print_page(parsed);
        return 0;
    }
    if (!parsed.empty()) return refuse(parsed + " (try --help)");
    return -1;
}

int run(int argc, char** argv) {
    Options typed;
    if (const int status = read_options(argc, argv, typed); status >= 0) return status;
    const Options& c = typed; // what the user typed, not changed from here on
    Prepared prepared;
    // Held by rank 0 until the run ends; left behind if it dies.
    OutputFolderLock folder_lock, checkpoint_lock;
    if (const std::string why = prepare(c, prepared, folder_lock, checkpoint_lock); !why.empty())
        return refuse(why);
    const RunPlan& plan = prepared.plan;
    const Physics& physics = prepared.physics;
    const RunContext context{c, plan, physics};

    // The test aids' step hook, installed where an aid is asked for; it
    // outlives the simulation, whose setup tells it what was planted.
    const TestAidHooks aid_hooks(plan.aids);
    std::unique_ptr<Simulation> simulation =
        make_simulation(context, MPI_COMM_WORLD, aid_hooks.where_asked());
    const SpeedCheck speed = check_run_speed(simulation, context, aid_hooks.where_asked());
    Simulation& sim = *simulation;
    aid_hooks.warn_where_nothing_planted();
    const std::vector<ShapeChoice> shapes = apply_tuning(sim, sim.decomposition(), c);
    if (c.preflight && !preflight_ok(sim, prepared.aware)) return 1;
    if (!c.timeline.empty())
        sim.record_timeline(); // drops the check's graphs: new ones hold its events
    Outputs outputs(context, sim, own_provenance(context, aid_hooks));
    DriveResult outcome;
    const double started = MPI_Wtime();
    try {
        outcome = drive(sim, context, outputs);
    } catch (const OutputFailure& failure) { // thrown on every rank together
        outputs.ended("failed", sim.steps_done());
        return fail_together(failure.what(), 1);
    }
    if (const int status = unfinished_status(outcome, physics, c.report, outputs); status >= 0)
        return status;
    print_checkpoints(c, outcome, MPI_Wtime() - started);
    Report report = summarize(sim, context, prepared.binding, shapes);
    report.provenance = outputs.provenance();
    report.trust.speed = speed, report.outputs = outputs.times();
    for (const std::string& warning :
         {short_window_warning(report.trust), slow_steps_warning(report.trust)})
        if (!warning.empty()) print_warnings({warning});
    int status = 0;
    if (!c.timeline.empty()) // collective; rank 0 writes, and knows whether it could
        if (const std::string why = write_timeline(sim, report); !why.empty()) {
            std::fprintf(stderr, "stencil-miniapp: %s\n", why.c_str());
            status = 1;
        }
    bool checks_failed = false;
    status = std::max(status, report_and_check(sim, context, report, checks_failed));
    if (world_rank() == 0) outputs.checked(report.provenance, checks_failed);
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
