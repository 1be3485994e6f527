#include "config/option_table.hpp"
#include "config/option_values.hpp"

#include <vector>

namespace stencil {
namespace {

constexpr std::pair<const char*, GraphChoice> kGraphs[] = {
    {"auto", GraphChoice::Auto}, {"on", GraphChoice::On}, {"off", GraphChoice::Off}};
constexpr std::pair<const char*, ModelKind> kModels[] = {{"constant", ModelKind::Constant},
                                                         {"layered", ModelKind::Layered}};
constexpr std::pair<const char*, OverlapChoice> kOverlap[] = {
    {"auto", OverlapChoice::Auto}, {"on", OverlapChoice::On}, {"off", OverlapChoice::Off}};
constexpr std::pair<const char*, PackChoice> kPack[] = {
    {"auto", PackChoice::Auto}, {"fused", PackChoice::Fused}, {"separate", PackChoice::Separate}};
constexpr std::pair<const char*, TraceFormat> kTraceFormats[] = {
    {"raw", TraceFormat::Raw}, {"segy", TraceFormat::Segy}, {"both", TraceFormat::Both}};
constexpr std::pair<const char*, OutputFormat> kOutputFormats[] = {{"raw", OutputFormat::Raw},
                                                                   {"hdf5", OutputFormat::Hdf5}};
constexpr std::pair<const char*, Precision> kPrecisions[] = {{"fp32", Precision::FP32},
                                                             {"fp64", Precision::FP64}};

template <typename Choice, std::size_t N>
const char* name_in(const std::pair<const char*, Choice> (&table)[N], Choice value) {
    for (const auto& [name, choice] : table)
        if (choice == value) return name;
    return "?";
}

// "x,z" -> {true, false, true}; "none" -> all false.
std::array<bool, 3> periodic_list(const std::string& text, const std::string& option) {
    std::array<bool, 3> axes{false, false, false};
    if (text == "none") return axes;
    if (text.empty() || text.back() == ',')
        throw BadOption{option + ": '" + text + "' is not a list of x, y and z (or none)"};
    for (const std::string& part : split_commas(text)) {
        if (part.size() != 1 || part[0] < 'x' || part[0] > 'z')
            throw BadOption{option + ": '" + text + "' is not a list of x, y and z (or none)"};
        bool& axis = axes[std::size_t(part[0] - 'x')];
        if (axis) throw BadOption{option + ": '" + text + "' names " + part + " twice"};
        axis = true;
    }
    return axes;
}

// --inject-fault: the testing room knows the faults (test_aids.hpp).
void inject_fault(Options& c, const char* name, const std::string& v) {
    if (const std::string why = c.aids.inject_fault(v); !why.empty())
        throw BadOption{std::string(name) + ": " + why};
}

using S = ParseState;
using V = const std::string&;

const OptionSpec kOptions[] = {
    {"Problem", "--grid", "NX,NY,NZ", "global grid (default 128,128,128)",
     [](S& s, const char* n, V v) { s.config.grid = triple(v, n, false), s.have_grid = true; }},
    {"Problem", "--local", "NX,NY,NZ", "grid per rank, for weak scaling (instead of --grid)",
     [](S& s, const char* n, V v) { s.config.local = triple(v, n, false), s.have_local = true; }},
    {"Problem", "--procs", "PX,PY,PZ", "process grid (default: MPI_Dims_create)",
     [](S& s, const char* n, V v) { s.config.procs = triple(v, n, false); }},
    {"Problem", "--radius", "R", "stencil radius 1..8, order 2R (default 4)",
     [](S& s, const char* n, V v) {
         const long r = parse_integer(v, n);
         if (r < kMinRadius || r > kMaxRadius)
             throw BadOption{std::string(n) + ": " + std::to_string(r) + " is outside 1..8"};
         s.config.radius = int(r);
     }},
    {"Problem", "--precision", "fp32|fp64",
     "element type of fields, halos, snapshots and traces (default fp32)",
     [](S& s, const char* n, V v) { s.config.precision = one_of(v, n, kPrecisions); }},
    {"Problem", "--steps", "N", "time steps, all timed: the physics the outputs show (default 100)",
     [](S& s, const char* n, V v) { s.config.steps = positive(v, n); }},
    {"Problem", "--warmup", "N",
     "untimed steps first, then undone: the fields go back to rest, so\n"
     "the outputs hold --steps steps alone (default 32: every graph a\n"
     "step replays is captured before the timed steps)",
     [](S& s, const char* n, V v) { s.config.warmup = non_negative(v, n); }},
    {"Problem", "--model", "constant|layered|file:PATH",
     "velocity model (default constant, 1500 m/s); layered: four layers,\n"
     "1500-3200 m/s with depth; file: a raw float32/float64 global field\n"
     "with a JSON sidecar (PATH minus .raw, plus .json), such as\n"
     "tools/make-model.py writes or a snapshot",
     [](S& s, const char* n, V v) {
         const std::string text = v;
         if (text.rfind("file:", 0) == 0) {
             s.config.model = ModelKind::File;
             s.config.model_path = path_value(text.substr(5), n);
         } else {
             s.config.model = one_of(v, n, kModels);
         }
     }},
    {"Problem", "--spacing", "H", "grid spacing in metres (default 10)",
     [](S& s, const char* n, V v) { s.config.spacing = positive_real(v, n); }},
    {"Problem", "--dt", "S", "time step; default 0.8 of the CFL limit, above the limit is refused",
     [](S& s, const char* n, V v) { s.config.dt = positive_real(v, n); }},
    {"Problem", "--f0", "HZ", "Ricker peak frequency (default: 6 cells per minimum wavelength)",
     [](S& s, const char* n, V v) { s.config.f0 = positive_real(v, n); }},
    {"Problem", "--source", "X,Y,Z", "source cell (default: the centre)",
     [](S& s, const char* n, V v) { s.config.source = triple(v, n, true); }},
    {"Problem", "--sponge", "W", "absorbing sponge W cells wide (default 0: rigid boundaries)",
     [](S& s, const char* n, V v) { s.config.sponge = non_negative(v, n); }},
    {"Problem", "--periodic", "x,y,z",
     "axes that wrap around, any subset (default none): every rank then\n"
     "has a neighbour on both sides of them, itself where it is alone",
     [](S& s, const char* n, V v) { s.config.periodic = periodic_list(v, n); }},

    {"Execution", "--comm", comm_words(),
     "halo exchange (default auto: gpu-aware when the MPI library\n"
     "reports GPU support, else staged, or peer where timed faster;\n"
     "nccl where built; peer: the update stores faces into the halos of\n"
     "ranks on the same node)",
     [](S& s, const char* n, V v) { s.config.comm = comm_choice(v, n); }},
    {"Execution", "--overlap", "auto|on|off",
     "overlap the exchange with the interior kernel (default auto:\n"
     "both timed per run where there is an exchange to hide, see the report)",
     [](S& s, const char* n, V v) { s.config.overlap = one_of(v, n, kOverlap); }},
    {"Execution", "--pack", "auto|fused|separate",
     "with overlap on at halo depth 1, who stores the faces the next\n"
     "exchange sends: the boundary kernels (fused) or a pack launch\n"
     "(default auto: timed with the overlap, see the report)",
     [](S& s, const char* n, V v) { s.config.pack = one_of(v, n, kPack); }},
    {"Execution", "--halo-depth", "K|auto",
     "exchange a halo K*R cells deep once every K steps, updating a\n"
     "shrinking ring of neighbours' cells in between (fewer, larger\n"
     "messages; default auto: chosen per run, see the report)",
     [](S& s, const char* n, V v) {
         if (v == "auto") {
             s.config.halo_depth = 0;
             return;
         }
         s.config.halo_depth = positive(v, n);
         if (s.config.halo_depth > kMaxHaloDepth)
             throw BadOption{std::string(n) + ": " + v + " is outside 1.." +
                             std::to_string(kMaxHaloDepth)};
     }},
    {"Execution", "--slab-x", "N|auto",
     "cells of the x boundary slabs, at least R (default auto: a 128-byte\n"
     "line of cells where the subdomain is 16 lines wide or more, else the\n"
     "halo's depth; see docs/PERFORMANCE.md)",
     [](S& s, const char* n, V v) { s.config.slab_x = v == "auto" ? 0 : positive(v, n); }},
    {"Execution", "--graphs", "auto|on|off",
     "replay each step's device work as HIP/CUDA graphs (default\n"
     "auto: on for steps with NCCL or nothing to exchange, off for MPI\n"
     "exchanges, where plain launches measured faster; never on the\n"
     "HOST back-end or HIP before ROCm 6.2)",
     [](S& s, const char* n, V v) { s.config.graphs = one_of(v, n, kGraphs); }},
    {"Execution", "--steps-per-graph", "1|2|4|8|16|auto",
     "at most this many consecutive steps replayed as one graph where a\n"
     "step's device work is one graph (--comm none, peer on a node):\n"
     "fewer launches and host calls a step (default auto: 16, or 1 where\n"
     "faces are linked)",
     [](S& s, const char* n, V v) {
         // Words, not a number: "huge" and 10^14 get the same answer.
         if (v != "1" && v != "2" && v != "4" && v != "8" && v != "16" && v != "auto")
             throw BadOption{std::string(n) + ": '" + v + "' is not 1, 2, 4, 8, 16 or auto"};
         s.config.steps_per_graph = v == "auto" ? 0 : std::stoi(v);
     }},
    {"Execution", "--update", "auto|tile|cells",
     "the wave update's body: the z-walking tile, or cells, one thread\n"
     "a 16-byte group with no tile (default auto: cells for boxes of at\n"
     "most 100^3 cells, else the tile)",
     [](S& s, const char* n, V v) {
         if (!parse_wave_body(v, s.config.shape.body))
             throw BadOption{std::string(n) + ": '" + v + "' is not auto, tile or cells"};
     }},
    {"Execution", "--block-x", "N", "fused kernel threads along x (default: by R and box)",
     [](S& s, const char* n, V v) { s.config.shape.block_x = positive(v, n); }},
    {"Execution", "--block-y", "N",
     "fused kernel threads along y (default 16x8 threads for R<=5,\n"
     "8x16 for R>=6 and thin x slabs)",
     [](S& s, const char* n, V v) { s.config.shape.block_y = positive(v, n); }},
    {"Execution", "--window", "N",
     "z planes per block (default 1 to 64 by R and box size, short\n"
     "ones for small boxes)",
     [](S& s, const char* n, V v) { s.config.shape.window = positive(v, n); }},
    {"Execution", "--rows", "N",
     "rows per thread, 1, 2, 4 or 8 (default by R and precision;\n"
     "the defaults were measured on H100 and H200)",
     [](S& s, const char* n, V v) { s.config.shape.rows = positive(v, n); }},
    {"Execution", "--planes-ahead", "N",
     "planes of loads the wave update keeps in flight, 1 or 2\n"
     "(default 1; 2 only where built: GPU back-ends, some R and rows)",
     [](S& s, const char* n, V v) { s.config.shape.ahead = integer_between(v, n, 1, 2); }},
    {"Execution", "--tuning", "off|auto|FILE",
     "launch shapes tuned on this GPU: from the tuning cache (auto:\n"
     "~/.cache/stencil-miniapp/tuning-cache.json or $STENCIL_TUNING_CACHE;\n"
     "or FILE), else tuned now and saved (default off: built-in shapes)",
     [](S& s, const char* n, V v) { s.config.tuning_mode = path_value(v, n); }},
    {"Execution", "--tune-seconds", "S",
     "the search's budget for all of a run's boxes (default 20)",
     [](S& s, const char* n, V v) { s.config.tune_seconds = positive(v, n); }},
    {"Execution", "--print-binding", nullptr, "list rank, host, device and PCI bus id",
     [](S& s, const char*, V) { s.config.print_binding = true; }},
    {"Execution", "--preflight", nullptr,
     "send a face to each neighbour and back, device and staged,\n"
     "check the contents and time both",
     [](S& s, const char*, V) { s.config.preflight = true; }},

    {"Output and checks", "--report", "FILE.json",
     "write the report as JSON, to a new file (an existing one is\n"
     "refused; --output-force replaces it)",
     [](S& s, const char* n, V v) { s.config.report = path_value(v, n); }},
    {"Output and checks", "--timeline", "FILE.json",
     "the first sampled steps of every rank as a trace (Perfetto,\n"
     "chrome://tracing): each phase a span on its rank's host, compute\n"
     "or halo stream track; a new file, as --report's",
     [](S& s, const char* n, V v) { s.config.timeline = path_value(v, n); }},
    {"Output and checks", "--label", "TEXT",
     "a label stored in the report (scaling scripts use weak/strong)",
     [](S& s, const char*, V v) { s.config.label = v; }},
    {"Output and checks", "--checksum", nullptr,
     "print 'checksum: <16 hex>' of the final field (the same on any\n"
     "decomposition)",
     [](S& s, const char*, V) { s.config.checksum = true; }},
    {"Output and checks", "--output", "DIR",
     "where snapshots, images and traces go (default output); the run\n"
     "locks it, refuses one in use, holding a finished run's files or a\n"
     "stopped run's record, or without room for what it will write",
     [](S& s, const char* n, V v) { s.config.output = path_value(v, n); }},
    {"Output and checks", "--output-force", nullptr,
     "take the folder anyway: replace another host's lock, a finished\n"
     "run's files, a stopped run's record and another run's\n"
     "checkpoints, skip the free-space check (never a live run's lock);\n"
     "replace an existing --report or --timeline file",
     [](S& s, const char*, V) { s.config.output_force = true; }},
    {"Output and checks", "--snapshot-every", "K",
     "every K steps, the global field as one raw file in the run's\n"
     "precision (float32, or float64 with --precision fp64; x fastest,\n"
     "MPI-IO; or HDF5: --output-format) with a JSON sidecar and an XDMF\n"
     "file that ParaView and VisIt open; also the --slice image",
     [](S& s, const char* n, V v) { s.config.snapshot_every = positive(v, n); }},
    {"Output and checks", "--output-format", "raw|hdf5",
     "each snapshot as a raw file (default) or as snapshot_NNNNNN.h5, one\n"
     "dataset /p written collectively with parallel HDF5 (where the build\n"
     "has it; h5py reads it), with the same sidecar and XDMF file",
     [](S& s, const char* n, V v) { s.config.output_format = one_of(v, n, kOutputFormats); }},
    {"Output and checks", "--slice", "x|y|z=K",
     "a PNG of that plane at each snapshot and at the end",
     [](S& s, const char* n, V v) { axis_index(v, n, s.config.slice_axis, s.config.slice_index); }},
    {"Output and checks", "--receivers", "FILE",
     "record p at every step at the cells listed (x,y,z per line)",
     [](S& s, const char* n, V v) { s.config.receivers_file = path_value(v, n); }},
    {"Output and checks", "--receiver-line", "z=K",
     "receivers at every x along depth K, at the source's y",
     [](S& s, const char* n, V v) {
         axis_index(v, n, s.config.line_axis, s.config.line_index);
         if (s.config.line_axis != 2)
             throw BadOption{std::string(n) + ": only z=K (a line along x at depth K)"};
     }},
    {"Output and checks", "--trace-format", "raw|segy|both",
     "the receivers' traces as traces.bin (raw, in the run's precision),\n"
     "as traces.sgy (SEG-Y rev 1, float32: segyio, Seismic Unix), or both\n"
     "(default raw); traces.json describes them",
     [](S& s, const char* n, V v) { s.config.trace_format = one_of(v, n, kTraceFormats); }},
    {"Output and checks", "--checkpoint-every", "N|TIME",
     "every N steps, or every TIME of wall time (90s, 15m, 2h, 1h30m), both\n"
     "time levels, the step and the traces so far into a checkpoint\n"
     "folder (the run's two newest kept; default 0: none)",
     [](S& s, const char* n, V v) {
         if (has_letter(v)) {
             s.config.checkpoint_seconds = wall_time(v, n);
             s.config.checkpoint_every = 0;
         } else {
             s.config.checkpoint_every = non_negative(v, n);
             s.config.checkpoint_seconds = 0;
         }
     }},
    {"Output and checks", "--checkpoint-dir", "DIR",
     "where checkpoints go (default OUTPUT/checkpoints); checked\n"
     "before step 1, and another run's there refused",
     [](S& s, const char* n, V v) { s.config.checkpoint_dir = path_value(v, n); }},
    {"Output and checks", "--restart", "DIR|latest",
     "continue from the newest checkpoint that verifies, on any rank\n"
     "count; --steps is the run's total, as before. SIGTERM, SIGINT\n"
     "and SIGUSR1 stop a run at a step boundary: a checkpoint (if on),\n"
     "one line, exit status 75; a second signal ends it at once",
     [](S& s, const char* n, V v) { s.config.restart = path_value(v, n); }},
    {"Output and checks", "--check", nullptr,
     "also run on one domain and compare bit for bit (small grids)",
     [](S& s, const char*, V) { s.config.check = true; }},
    {"Output and checks", "--nan-check", "N",
     "stop with the step and rank if a NaN/Inf appears, checked every\n"
     "N steps (default 50; 0: never); each count is read at the next\n"
     "check, or before any output, checkpoint or stop, so the run goes on\n"
     "to there, and the step named is the one whose count saw it",
     [](S& s, const char* n, V v) { s.config.nan_check_every = non_negative(v, n); }},
    {"Output and checks", "--progress", "S",
     "a progress line on stderr every S seconds (default 1; 0: every step)",
     [](S& s, const char* n, V v) {
         s.config.progress_seconds = v == "0" ? 0.0 : non_negative_real(v, n);
     }},
    {"Output and checks", "--quiet", nullptr,
     "only warnings, errors and the FOM line (no progress, phase table\n"
     "or context; a NOTE line where test aids are planted)",
     [](S& s, const char*, V) { s.config.quiet = true; }},

    {"Testing aids", "--poison-halo", nullptr, "fill received halos with NaN before each exchange",
     [](S& s, const char*, V) { s.config.aids.set_poison_halo(); }},
    {"Testing aids", "--inject-fault",
     "drop-face|short-ring|short-fused-pack|early-boundary|peer-skip-wait|"
     "peer-early-signal|peer-wrong-face|peer-wrong-level|skip-slab-cell|nan|"
     "fail-rank=N|late-rank=N|write-error",
     "plant a bug: zero a received face; update the ghost ring of deep\n"
     "halos one cell short; store the fused pack's first face one cell\n"
     "short; launch the boundary slabs before their halos arrive;\n"
     "--comm peer: skip the wait for the neighbours, or tell them before\n"
     "the faces are stored (ranks but 0 storing 20 ms late), or store a\n"
     "face into the wrong neighbour's halo, or into the time level it\n"
     "still reads; leave one boundary slab cell\n"
     "as it was before the slabs' update; put a NaN at the source at\n"
     "step 3; make rank N fail at step 3; hold rank N back 2 s before the\n"
     "timed steps; the last rank's part of the 2nd snapshot meets a full\n"
     "disk",
     [](S& s, const char* n, V v) { inject_fault(s.config, n, v); }},
    {"Testing aids", "--help", nullptr, "this text", nullptr},
    {"Testing aids", "--help-markdown", nullptr,
     "every option's full text as Markdown (docs/OPTIONS.md)", nullptr},
    {"Testing aids", "--version", nullptr, "the version and the source revision it was built from",
     nullptr},
};

} // namespace

const char* choice_name(OverlapChoice choice) {
    return name_in(kOverlap, choice);
}
const char* choice_name(PackChoice choice) {
    return name_in(kPack, choice);
}
const char* choice_name(GraphChoice choice) {
    return name_in(kGraphs, choice);
}

const OptionSpec* option_table(int& count) {
    count = int(sizeof kOptions / sizeof kOptions[0]);
    return kOptions;
}

} // namespace stencil
