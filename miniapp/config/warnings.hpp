// Inputs that run, but probably not as the user meant: too few cells per
// wavelength for the stencil, a source or receivers inside the sponge, a
// sponge that covers the grid, snapshots that never come. One line each,
// from rank 0, before the first step; the run goes on.
#pragma once

#include "config/model.hpp"
#include "config/options.hpp"
#include "config/run_context.hpp"

#include <string>
#include <vector>

namespace stencil {

// plan.receivers must be filled (prepare_outputs) for the receiver warning.
std::vector<std::string> input_warnings(const RunContext& run);

// "stencil-miniapp: warning: ..." on stderr, from rank 0, even with --quiet.
void print_warnings(const std::vector<std::string>& warnings);

} // namespace stencil
