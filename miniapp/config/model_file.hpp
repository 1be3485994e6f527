// Velocity models from files (--model file:PATH): a raw global field of
// float32 or float64, x fastest, described by the JSON sidecar every
// snapshot has (dtype, dims, spacing_m, bytes, crc32), so a snapshot or
// tools/make-model.py's output can be read in.
//
// Read twice, both times in parallel: once before anything is built, to
// check it whole (each rank a contiguous stretch; the CRC-32 combined from
// the stretches, crc32.hpp) and to find its slowest and fastest speeds for
// the stability limit and the dispersion warning; then, by the simulation,
// each rank its own box plus the halo it needs, with collective MPI-IO.
#pragma once

#include "config/options.hpp"
#include "config/run_plan.hpp"
#include "decomposition.hpp"

#include <string>
#include <vector>

namespace stencil {

// The sidecar of a raw file: PATH minus ".raw", plus ".json" (PATH.json
// when PATH does not end in .raw), as snapshots are written.
std::string sidecar_path(const std::string& raw_path);

// Collective over MPI_COMM_WORLD, before the run: checks c.model_path (its
// sidecar exists and is one, its dims are the grid's, its spacing the
// run's, its length and CRC-32 the sidecar's, every value finite and
// positive); fills plan.model_fp64 and plan.model_crc32, and the slowest
// and fastest speeds. Returns "" or one line, the same on every rank.
std::string check_model_file(const Options& c, RunPlan& plan, double& c_min, double& c_max);

// Collective over d.cart: this rank's box grown by `halo` cells on every
// side (x fastest), from the checked model file. Past a physical boundary
// a halo cell takes the nearest edge cell's speed; along a periodic axis,
// the wrapped cell's.
std::vector<double> read_model_box(const Options& c, const RunPlan& plan, const Decomposition& d,
                                   int halo);

} // namespace stencil
