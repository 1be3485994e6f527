// stencil-bench's benchmarks, registered with Google Benchmark in the order
// they run: per size and precision, the copy (the yardstick), the
// Laplacian series, then per radius every variant and the shell parts.
#pragma once

#include "bench_options.hpp"

namespace stencil::bench {

// Every benchmark the options select (register_variants.cpp).
void register_all(const Options& o);

// The boundary of a rank with six neighbours, part by part, at radius R in
// `precision` (register_shell.cpp).
void register_shell(const Size& s, const Options& o, Precision precision, int R);

} // namespace stencil::bench
