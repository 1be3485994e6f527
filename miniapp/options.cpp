#include "options.hpp"

#include "graph.hpp"

#include <cerrno>
#include <cstdlib>
#include <sstream>
#include <utility>
#include <vector>

namespace stencil {
namespace {

struct BadOption {
    std::string message;
};

long parse_integer(const std::string& text, const std::string& option) {
    errno = 0;
    char* end = nullptr;
    const long v = std::strtol(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || errno == ERANGE || v < INT32_MIN || v > INT32_MAX)
        throw BadOption{option + ": '" + text + "' is not an integer"};
    return v;
}

int positive(const std::string& text, const std::string& option) {
    const long v = parse_integer(text, option);
    if (v <= 0) throw BadOption{option + ": " + text + " must be positive"};
    return int(v);
}

int non_negative(const std::string& text, const std::string& option) {
    const long v = parse_integer(text, option);
    if (v < 0) throw BadOption{option + ": " + text + " must not be negative"};
    return int(v);
}

double positive_real(const std::string& text, const std::string& option) {
    errno = 0;
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || errno == ERANGE || !(v > 0))
        throw BadOption{option + ": '" + text + "' is not a positive number"};
    return v;
}

std::array<int, 3> triple(const std::string& text, const std::string& option, bool allow_zero) {
    std::vector<std::string> parts;
    std::stringstream stream(text);
    for (std::string part; std::getline(stream, part, ',');)
        parts.push_back(part);
    if (parts.size() != 3)
        throw BadOption{option + ": '" + text + "' is not three comma-separated integers"};
    std::array<int, 3> v{};
    for (int a = 0; a < 3; ++a)
        v[a] = allow_zero ? non_negative(parts[a], option) : positive(parts[a], option);
    return v;
}

// "z=64" -> axis 2, index 64.
void axis_index(const std::string& text, const std::string& option, int& axis, int& index) {
    if (text.size() < 3 || text[1] != '=' || (text[0] != 'x' && text[0] != 'y' && text[0] != 'z'))
        throw BadOption{option + ": '" + text + "' is not x=K, y=K or z=K"};
    axis = text[0] - 'x';
    index = non_negative(text.substr(2), option);
}

// The names --comm accepts, in the order --help lists them.
constexpr std::pair<const char*, CommChoice> kCommChoices[] = {{"auto", CommChoice::Auto},
                                                               {"staged", CommChoice::Staged},
                                                               {"gpu-aware", CommChoice::GpuAware},
                                                               {"nccl", CommChoice::Nccl},
                                                               {"none", CommChoice::None}};

CommChoice comm_choice(const std::string& text) {
    for (const auto& [name, choice] : kCommChoices)
        if (text == name) return choice;
    throw BadOption{"--comm: '" + text + "' is not auto, staged, gpu-aware, nccl or none"};
}

bool on_off(const std::string& text, const std::string& option) {
    if (text == "on") return true;
    if (text == "off") return false;
    throw BadOption{option + ": '" + text + "' is not on or off"};
}

} // namespace

const char* usage() {
    return "usage: stencil-miniapp [options]   (launch with mpirun/srun; one rank per GPU)\n"
           "Acoustic wave propagation: leapfrog in time, order-2R Laplacian in space, Ricker "
           "source.\n"
           "\n"
           "Problem\n"
           "  --grid NX,NY,NZ       global grid (default 128,128,128)\n"
           "  --local NX,NY,NZ      grid per rank, for weak scaling (instead of --grid)\n"
           "  --procs PX,PY,PZ      process grid (default: MPI_Dims_create)\n"
           "  --radius R            stencil radius 1..8, order 2R (default 4)\n"
           "  --precision fp32|fp64 element type of fields, halos and outputs (default fp32)\n"
           "  --steps N             timed time steps (default 100)\n"
           "  --warmup N            untimed steps before them (default 5)\n"
           "  --model constant|layered   velocity model (default constant, 1500 m/s)\n"
           "  --spacing H           grid spacing in metres (default 10)\n"
           "  --dt S                time step; default 0.8 of the CFL limit, above the limit is "
           "refused\n"
           "  --f0 HZ               Ricker peak frequency (default: 6 cells per minimum "
           "wavelength)\n"
           "  --source X,Y,Z        source cell (default: the centre)\n"
           "  --sponge W            absorbing sponge W cells wide (default 0: rigid boundaries)\n"
           "\n"
           "Execution\n"
           "  --comm auto|staged|gpu-aware|nccl|none   halo exchange (default auto: gpu-aware when "
           "the\n"
           "                        MPI library reports GPU support, else staged; nccl where "
           "built)\n"
           "  --overlap on|off      overlap the exchange with the interior kernel (default on)\n"
           "  --graphs auto|on|off  replay each step's device work as HIP/CUDA graphs (default\n"
           "                        auto: on for steps with NCCL or nothing to exchange, off\n"
           "                        for MPI exchanges, where plain launches measured faster;\n"
           "                        never on the HOST back-end or HIP before ROCm 6.2)\n"
           "  --block-x N --block-y N --window N --rows N  fused kernel launch shape\n"
           "                        (default: 16x8 threads for R<=5, 8x16 for R>=6 and thin\n"
           "                        x slabs; 1 to 64 planes by R and box size, short ones for\n"
           "                        small boxes; rows per thread 1, 2, 4 or 8 by R and\n"
           "                        precision; all measured on H100 and H200)\n"
           "  --tuning off|auto|FILE  launch shapes tuned on this GPU: from the tuning cache\n"
           "                        (auto: ~/.cache/stencil-miniapp/tuning-cache.json or\n"
           "                        $STENCIL_TUNING_CACHE; or FILE), else tuned now and saved\n"
           "                        (default off: the built-in shapes)\n"
           "  --tune-seconds S      the search's budget for all of a run's boxes (default 20)\n"
           "  --print-binding       list rank, host, device and PCI bus id\n"
           "  --preflight           send a face to each neighbour and back, device and staged, "
           "check, time\n"
           "\n"
           "Output and checks\n"
           "  --report FILE.json    write the report as JSON\n"
           "  --label TEXT          a label stored in the report (scaling scripts use "
           "weak/strong)\n"
           "  --checksum            print 'checksum: <16 hex>' of the final field "
           "(decomposition-independent)\n"
           "  --output DIR          where snapshots, images and traces go (default output); the "
           "run\n"
           "                        locks it, refuses one in use, holding a finished run's files, "
           "or\n"
           "                        without room for what it will write\n"
           "  --output-force        take the folder anyway: replace a dead run's lock and a "
           "finished\n"
           "                        run's files, skip the free-space check (never a live run's "
           "lock)\n"
           "  --snapshot-every K    every K steps, the global field as raw float32 (x fastest, "
           "MPI-IO)\n"
           "                        with a JSON sidecar; also the --slice image\n"
           "  --slice x|y|z=K       a PNG of that plane at each snapshot and at the end\n"
           "  --receivers FILE      record p at every step at the cells listed (x,y,z per line)\n"
           "  --receiver-line z=K   receivers at every x along depth K, at the source's y\n"
           "  --check               also run on one domain and compare bit for bit (small grids)\n"
           "  --nan-check N         stop with the step and rank if a NaN/Inf appears, checked "
           "every N steps\n"
           "                        (default 50; 0: never)\n"
           "  --progress S          a progress line on stderr every S seconds (default 1; 0: every "
           "step)\n"
           "  --quiet               only errors and the FOM line\n"
           "\n"
           "Testing aids\n"
           "  --poison-halo         fill received halos with NaN before each exchange\n"
           "  --inject-fault drop-face|nan|fail-rank=N|write-error   plant a bug: zero a received "
           "face;\n"
           "                        put a NaN at the source at step 3; make rank N fail at step "
           "3;\n"
           "                        the last rank's part of the 2nd snapshot meets a full disk\n"
           "  --help                this text\n";
}

std::string parse_options(int argc, char** argv, Config& c) {
    bool have_grid = false, have_local = false;
    try {
        for (int a = 1; a < argc; ++a) {
            std::string opt = argv[a], value;
            const auto eq = opt.find('=');
            if (eq != std::string::npos) value = opt.substr(eq + 1), opt = opt.substr(0, eq);
            auto next = [&]() -> std::string {
                if (eq != std::string::npos) return value;
                if (a + 1 >= argc) throw BadOption{opt + " needs a value"};
                return argv[++a];
            };
            if (opt == "--help" || opt == "-h")
                return "help";
            else if (opt == "--grid")
                c.grid = triple(next(), opt, false), have_grid = true;
            else if (opt == "--local")
                c.local = triple(next(), opt, false), have_local = true;
            else if (opt == "--procs")
                c.procs = triple(next(), opt, false);
            else if (opt == "--radius") {
                const long r = parse_integer(next(), opt);
                if (r < kMinRadius || r > kMaxRadius)
                    throw BadOption{"--radius: " + std::to_string(r) + " is outside 1..8"};
                c.radius = int(r);
            } else if (opt == "--precision") {
                const std::string p = next();
                if (!parse_precision(p, c.precision))
                    throw BadOption{"--precision: '" + p + "' is not fp32 or fp64"};
            } else if (opt == "--steps")
                c.steps = positive(next(), opt);
            else if (opt == "--warmup")
                c.warmup = non_negative(next(), opt);
            else if (opt == "--comm")
                c.comm = comm_choice(next());
            else if (opt == "--overlap")
                c.overlap = on_off(next(), opt);
            else if (opt == "--graphs") {
                const std::string v = next();
                if (v == "auto")
                    c.graphs = GraphChoice::Auto;
                else if (v == "on" || v == "off")
                    c.graphs = v == "on" ? GraphChoice::On : GraphChoice::Off;
                else
                    throw BadOption{"--graphs: '" + v + "' is not auto, on or off"};
            } else if (opt == "--model") {
                const std::string v = next();
                if (v == "constant")
                    c.model = ModelKind::Constant;
                else if (v == "layered")
                    c.model = ModelKind::Layered;
                else
                    throw BadOption{"--model: '" + v + "' is not constant or layered"};
            } else if (opt == "--spacing")
                c.spacing = positive_real(next(), opt);
            else if (opt == "--dt")
                c.dt = positive_real(next(), opt);
            else if (opt == "--f0")
                c.f0 = positive_real(next(), opt);
            else if (opt == "--source")
                c.source = triple(next(), opt, true);
            else if (opt == "--sponge")
                c.sponge = non_negative(next(), opt);
            else if (opt == "--report")
                c.report = next();
            else if (opt == "--label")
                c.label = next();
            else if (opt == "--output")
                c.output = next();
            else if (opt == "--output-force")
                c.output_force = true;
            else if (opt == "--snapshot-every")
                c.snapshot_every = positive(next(), opt);
            else if (opt == "--slice")
                axis_index(next(), opt, c.slice_axis, c.slice_index);
            else if (opt == "--receivers")
                c.receivers_file = next();
            else if (opt == "--receiver-line") {
                axis_index(next(), opt, c.line_axis, c.line_index);
                if (c.line_axis != 2)
                    throw BadOption{"--receiver-line: only z=K (a line along x at depth K)"};
            } else if (opt == "--block-x")
                c.tuning.block_x = positive(next(), opt);
            else if (opt == "--block-y")
                c.tuning.block_y = positive(next(), opt);
            else if (opt == "--window")
                c.tuning.window = positive(next(), opt);
            else if (opt == "--rows")
                c.tuning.rows = positive(next(), opt);
            else if (opt == "--tuning")
                c.tuning_mode = next();
            else if (opt == "--tune-seconds")
                c.tune_seconds = positive(next(), opt);
            else if (opt == "--checksum")
                c.checksum = true;
            else if (opt == "--check")
                c.check = true;
            else if (opt == "--print-binding")
                c.print_binding = true;
            else if (opt == "--preflight")
                c.preflight = true;
            else if (opt == "--quiet")
                c.quiet = true;
            else if (opt == "--poison-halo")
                c.poison_halo = true;
            else if (opt == "--nan-check")
                c.nan_check_every = non_negative(next(), opt);
            else if (opt == "--progress") {
                const std::string v = next();
                c.progress_seconds = v == "0" ? 0.0 : positive_real(v, opt);
            } else if (opt == "--inject-fault") {
                const std::string v = next();
                if (v == "drop-face")
                    c.drop_face = true;
                else if (v == "nan")
                    c.inject_nan = true;
                else if (v.rfind("fail-rank=", 0) == 0)
                    c.fail_rank = non_negative(v.substr(10), opt);
                else if (v == "write-error")
                    c.inject_write_error = true;
                else
                    throw BadOption{"--inject-fault: '" + v +
                                    "' is not drop-face, nan, fail-rank=N or write-error"};
            } else
                throw BadOption{"unknown option '" + opt + "'"};
        }
    } catch (const BadOption& bad) {
        return bad.message;
    }
    if (have_grid && have_local) return "use --grid or --local, not both";
    if (!have_grid && !have_local) c.grid = {128, 128, 128};
    if (const std::string why = validate(c.tuning); !why.empty())
        return "bad kernel tuning: " + why;
    const Tuning& t = c.tuning;
    if (c.tuning_mode != "off" && (t.block_x || t.block_y || t.window || t.rows))
        return "--tuning " + c.tuning_mode +
               " chooses the launch shape; drop --block-x/--block-y/--window/--rows, or use "
               "--tuning off";
    if (c.tuning_mode.empty()) return "--tuning needs off, auto or a cache file";
    // The wave kernel's rows are bounded per radius (max_fused_rows).
    if (c.tuning.rows > max_fused_rows(c.radius, true))
        return "--rows " + std::to_string(c.tuning.rows) +
               ": the wave kernel at R=" + std::to_string(c.radius) + " is built for at most " +
               std::to_string(max_fused_rows(c.radius, true)) + " rows per thread";
    if (c.graphs == GraphChoice::On && !graphs_available())
        return "--graphs on: this build has no graphs (the HOST back-end, or HIP before ROCm "
               "6.2); use --graphs auto or off";
    if (c.inject_write_error && c.snapshot_every == 0)
        return "--inject-fault write-error needs --snapshot-every";
    if (c.check && c.comm == CommChoice::None)
        return "--check needs a halo exchange; --comm none moves no halos";
    return {};
}

} // namespace stencil
