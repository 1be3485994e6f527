#include "bench_options.hpp"

#include "gpu_runtime.hpp"
#include "stencil_version.hpp"
#include "tuning_cache.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <sstream>

namespace stencil::bench {
namespace {

[[noreturn]] void fail(const std::string& message) {
    std::fprintf(stderr, "stencil-bench: %s (try --help)\n", message.c_str());
    std::exit(2);
}

int parse_int(const std::string& text, const std::string& what, long most = 1 << 20) {
    char* end = nullptr;
    const long value = std::strtol(text.c_str(), &end, 10);
    if (text.empty() || std::isspace((unsigned char)text[0]) || *end != '\0' || value <= 0 ||
        value > most)
        fail("bad " + what + " '" + text + "': expected " +
             (most == 2 ? "1 or 2" : "an integer from 1 to " + std::to_string(most)));
    return int(value);
}

std::vector<std::string> split(const std::string& text, char sep) {
    std::vector<std::string> parts;
    std::stringstream stream(text);
    for (std::string part; std::getline(stream, part, sep);)
        parts.push_back(part);
    return parts;
}

Size parse_size(const std::string& text) {
    const auto parts = split(text, 'x');
    if (parts.size() == 1) {
        const int n = parse_int(parts[0], "size");
        return {n, n, n};
    }
    if (parts.size() != 3) fail("bad size '" + text + "': expected N or NXxNYxNZ");
    return {parse_int(parts[0], "size"), parse_int(parts[1], "size"), parse_int(parts[2], "size")};
}

const char* kUsage =
    "usage: stencil-bench [options] [Google Benchmark flags]\n"
    "  --radii=1,2,4,8          stencil radii R (1..8)\n"
    "  --sizes=256,512          cubes N, or NXxNYxNZ, comma-separated\n"
    "  --precision=fp32,fp64    element types (default both); the copy runs in each\n"
    "  --variants=a,b           subset of (the copy always runs): baseline_x, baseline_y, "
    "baseline_z, vector_x,\n"
    "                           lds_y, window_z, fused_xy, fused_xyz, baseline_3pass, wave, "
    "series,\n"
    "                           shell (shell_inner, shell_x, shell_y, shell_z, shell_slabs)\n"
    "                           (series: the Laplacian series' 7-point steps at R=1, on a grid of\n"
    "                           N^3 points including its boundary, as in the articles; shell: the\n"
    "                           wave over the interior and the boundary slabs of a rank with six\n"
    "                           neighbours, each alone, the slabs as one launch)\n"
    "  --block-x=N --block-y=N  threads per block of the LDS/window/fused kernels (one 16-byte\n"
    "                           group, 4 floats or 2 doubles, per thread in x); default 16x8 for\n"
    "                           R<=5, 8x16 for R>=6, measured on an H200\n"
    "  --rows=1,2,4,8           rows per thread of fused_xyz and wave, one benchmark each\n"
    "                           (default: 2 for R<=4, else 1); rows a kernel is not built for\n"
    "                           at some R are skipped, saying so\n"
    "  --ahead=1,2              planes of loads in flight in the wave update, one benchmark\n"
    "                           each (default: 1); where two are not built for R, rows and\n"
    "                           precision, skipped, saying so\n"
    "  --window=N               z planes per block (nw) of the window/fused kernels (default 16;\n"
    "                           the wave's, when not given: 16, 32 or 64 by R and box)\n"
    "  --slab-x=N|auto          shell: x slabs N cells deep (at least R), the inner box that\n"
    "                           much narrower (default auto: the mini-app's --slab-x auto)\n"
    "  --slab-kernel=auto|tile|thin|cells  shell: the slabs' kernel (default auto: the\n"
    "                           mini-app's choice for the box)\n"
    "  --warmup=3               untimed launches before timing\n"
    "  --tuning=off|auto|FILE   also run fused_xyz and wave in the shape the self-tuner chose\n"
    "                           for this GPU (.../tuned), from the tuning cache (auto: the\n"
    "                           default cache path) or tuned now and saved there (default off)\n"
    "  --tune-only              with --tuning: fill the cache for the sizes, radii and\n"
    "                           precisions given, print what was chosen, and exit\n"
    "  --tune-seconds=20        the search's time budget per kernel and box\n"
    "  --inject-fault=wrong-result  change one output cell before each check (tests)\n"
    "  --version                the version and the source revision it was built from\n"
    "Counters: GB/s (effective, minimal bytes, decimal), Gcell/s, copy_ratio (GB/s over the\n"
    "copy kernel's GB/s for the same size in this run). JSON: --benchmark_out=FILE.json\n"
    "After timing, each benchmark's output is checked once against a host reference; a\n"
    "wrong result marks the benchmark as an error and the run exits 1.\n";

} // namespace

std::string Size::label() const {
    return std::to_string(nx) + "x" + std::to_string(ny) + "x" + std::to_string(nz);
}

// Every name --variants takes, on any back-end.
const char* const kVariantNames[] = {
    "baseline_x",  "baseline_y", "baseline_z",     "vector_x", "lds_y",      "window_z",
    "fused_xy",    "fused_xyz",  "baseline_3pass", "wave",     "series",     "shell",
    "shell_inner", "shell_x",    "shell_y",        "shell_z",  "shell_slabs"};

bool built_here(const std::string& name) {
    for (const Variant v : available_variants())
        if (name == variant_name(v)) return true;
    return name == "baseline_3pass" || name == "wave" || name.rfind("shell", 0) == 0 ||
           (name == "series" && STENCIL_HAS_GPU);
}

std::vector<std::string> Options::unavailable_variants() const {
    std::vector<std::string> missing;
    for (const std::string& name : variants)
        if (!built_here(name)) missing.push_back(name);
    return missing;
}

bool Options::wants(const std::string& name) const {
    if (variants.empty()) return true;
    for (const auto& v : variants)
        if (v == name) return true;
    return false;
}

namespace {

// A list option's items, none empty: an empty one would run a benchmark
// other than the one asked for.
std::vector<std::string> items(const std::string& key, const std::string& value) {
    const std::vector<std::string> parts = split(value, ',');
    if (value.empty() || value.back() == ',' ||
        std::find(parts.begin(), parts.end(), "") != parts.end())
        fail(key + "=" + value + ": an empty item");
    return parts;
}

// The parsed list, none of it twice however spelled (32 and 32x32x32, 2
// and 02): the same benchmark twice, under one name.
template <class T>
void no_repeats(const std::string& key, const std::string& value, const std::vector<T>& parsed) {
    for (auto p = parsed.begin(); p != parsed.end(); ++p)
        if (std::find(parsed.begin(), p, *p) != p) fail(key + "=" + value + ": an item twice");
}

// The options that take a comma-separated list; false for any other key.
bool parse_list(Options& o, const std::string& key, const std::string& value) {
    if (key == "--radii") {
        o.radii.clear();
        for (const auto& r : items(key, value))
            o.radii.push_back(parse_int(r, "radius", kMaxRadius));
        no_repeats(key, value, o.radii);
    } else if (key == "--sizes") {
        o.sizes.clear();
        std::vector<std::string> labels;
        for (const auto& s : items(key, value)) {
            o.sizes.push_back(parse_size(s));
            labels.push_back(o.sizes.back().label());
        }
        no_repeats(key, value, labels);
    } else if (key == "--precision") {
        o.precisions.clear();
        for (const auto& p : items(key, value)) {
            Precision precision;
            if (!parse_precision(p, precision)) fail("precision '" + p + "' is not fp32 or fp64");
            o.precisions.push_back(precision);
        }
        no_repeats(key, value, o.precisions);
    } else if (key == "--rows") {
        o.rows.clear();
        for (const auto& r : items(key, value)) {
            const int rows = parse_int(r, "rows", 8);
            if (rows != 1 && rows != 2 && rows != 4 && rows != 8)
                fail("rows per thread must be 1, 2, 4 or 8, not " + r);
            o.rows.push_back(rows);
        }
        no_repeats(key, value, o.rows);
    } else if (key == "--ahead") {
        o.ahead.clear();
        for (const auto& a : items(key, value))
            o.ahead.push_back(parse_int(a, "planes ahead", 2));
        no_repeats(key, value, o.ahead);
    } else if (key == "--variants") {
        o.variants = items(key, value);
        no_repeats(key, value, o.variants);
        for (const std::string& name : o.variants)
            if (std::find(std::begin(kVariantNames), std::end(kVariantNames), name) ==
                std::end(kVariantNames))
                fail("--variants: '" + name + "' is not a variant");
    } else {
        return false;
    }
    return true;
}

// The options of one value, or none; false for any other key.
bool parse_single(Options& o, const std::string& key, const std::string& value) {
    if (key == "--block-x") {
        o.shape.block_x = parse_int(value, "block-x");
    } else if (key == "--block-y") {
        o.shape.block_y = parse_int(value, "block-y");
    } else if (key == "--window") {
        o.shape.window = parse_int(value, "window");
    } else if (key == "--slab-x") {
        o.slab_x = value == "auto" ? 0 : parse_int(value, "slab-x");
    } else if (key == "--slab-kernel") {
        o.slab_kernel.reset();
        for (const SlabKernel k : {SlabKernel::Tile, SlabKernel::Thin, SlabKernel::Cells})
            if (value == slab_kernel_name(k)) o.slab_kernel = k;
        if (!o.slab_kernel && value != "auto")
            fail("--slab-kernel: '" + value + "' is not auto, tile, thin or cells");
    } else if (key == "--tuning") {
        if (value.empty()) fail("--tuning needs off, auto or a file");
        if (const std::string why = tuning_mode_problem(value); !why.empty())
            fail("--tuning=" + why);
        o.tuning_mode = value;
    } else if (key == "--tune-only") {
        o.tune_only = true;
    } else if (key == "--tune-seconds") {
        o.tune_seconds = parse_int(value, "tune-seconds");
    } else if (key == "--inject-fault") {
        if (value != "wrong-result") fail("--inject-fault: '" + value + "' is not wrong-result");
        o.plant_wrong_result = true;
    } else if (key == "--warmup") {
        o.warmup = parse_int(value, "warmup");
    } else {
        return false;
    }
    return true;
}

} // namespace

bool print_help_if_asked(int argc, char** argv) {
    for (int a = 1; a < argc; ++a) {
        const std::string arg = argv[a];
        if (arg == "--help" || arg == "-h") {
            std::fputs(kUsage, stdout);
            return true;
        }
        if (arg == "--version") {
            std::printf("stencil-bench %s\n", STENCIL_VERSION_STRING);
            return true;
        }
    }
    return false;
}

Options parse_options(int argc, char** argv) {
    Options o;
    std::vector<std::string> given;
    for (int a = 1; a < argc; ++a) {
        const std::string arg = argv[a];
        const auto eq = arg.find('=');
        const std::string key = arg.substr(0, eq),
                          value = eq == std::string::npos ? "" : arg.substr(eq + 1);
        if (!parse_list(o, key, value) && !parse_single(o, key, value))
            fail("unknown option '" + arg + "'");
        if (std::find(given.begin(), given.end(), key) != given.end())
            std::fprintf(stderr,
                         "stencil-bench: warning: %s given more than once; the last counts\n",
                         key.c_str());
        given.push_back(key);
    }
    if (const std::string why = validate(o.shape); !why.empty()) fail("bad tuning: " + why);
    if (o.tune_only && o.tuning_mode == "off") fail("--tune-only needs --tuning=auto or a file");
    if (o.radii.empty() || o.sizes.empty() || o.precisions.empty())
        fail("need at least one radius, size and precision");
    if (const int R = *std::max_element(o.radii.begin(), o.radii.end());
        o.slab_x > 0 && o.slab_x < R)
        fail("--slab-x=" + std::to_string(o.slab_x) + " is narrower than the stencil radius " +
             std::to_string(R) + ": the x slabs must hold the cells that read the halo");
    return o;
}

} // namespace stencil::bench
