// Command-line options of stencil-bench (Google Benchmark's own flags are
// removed first by benchmark::Initialize).
#pragma once

#include "stencil.hpp"

#include <optional>
#include <string>
#include <vector>

namespace stencil::bench {

struct Size {
    int nx, ny, nz;
    std::string label() const;
};

struct Options {
    std::vector<int> radii{1, 2, 4, 8};
    std::vector<Size> sizes{{256, 256, 256}, {512, 512, 512}};
    std::vector<std::string>
        variants; // empty: every variant of the back-end, the three-pass, wave and series
    std::vector<Precision> precisions{Precision::FP32, Precision::FP64};
    LaunchShape shape;
    // Rows per thread of the fused Laplacian and wave: each value is its own
    // benchmark (named .../rows=N); empty: the default for R and precision.
    std::vector<int> rows;
    // Planes of loads in flight in the wave update, each its own benchmark
    // (.../ahead=N); empty: the default. The other kernels keep one.
    std::vector<int> ahead;
    int warmup = 3;
    int slab_x = 0; // --slab-x: the shell's x slabs this many cells deep (0: R)
    // --slab-kernel: the shell's slabs on this kernel (none: the mini-app's choice).
    std::optional<SlabKernel> slab_kernel;
    // --tuning: "off" (default shapes only), "auto" (the default cache
    // path) or a cache file; then the fused Laplacian and wave also run in
    // their tuned shape, as .../tuned. --tune-only fills the cache and exits.
    std::string tuning_mode = "off";
    bool tune_only = false;
    double tune_seconds = 20; // the search's budget per kernel and box
    // --inject-fault=wrong-result: change one output cell before each check,
    // to show that the check fails the run (tests).
    bool plant_wrong_result = false;
    bool wants(const std::string& name) const;
    // The --variants this back-end does not build (the HOST back-end has no
    // vector_x, lds_y, window_z, fused_xy or series): main() says they are skipped.
    std::vector<std::string> unavailable_variants() const;
};

// Parses argv (after Google Benchmark took its flags). On bad input prints
// one line on stderr and exits 2; on --help prints usage and exits 0.
Options parse_options(int argc, char** argv);
// Whether argv asks for --help (or -h) or --version; if so, the options
// or the version are printed.
// Asked before Google Benchmark reads argv, whose own --help would print
// only its flags.
bool print_help_if_asked(int argc, char** argv);

} // namespace stencil::bench
