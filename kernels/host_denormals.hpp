// Subnormal floats on the HOST back-end.
//
// The stencil's far tails fill the grid with values below the smallest
// normal float long before the wave arrives. Many x86 cores handle an
// operation on a subnormal in microcode, 10 to 100 times slower than on a
// normal number, so an IEEE run slows down as the tails spread and its
// figure of merit depends on the step count. Values that small (below
// 1.2e-38 in FP32, 2.2e-308 in FP64) are far below any amplitude the run
// resolves, so the HOST back-end flushes them to zero, as GPU compilers do
// under -ftz and as production CPU codes compiled with -ffast-math do.
// The GPU back-ends keep IEEE subnormals: their FMA units handle them at
// full rate (docs/performance-history.md, "(Moved from PERFORMANCE.md, 2026-11-27) Subnormals").
#pragma once

namespace stencil {

// Sets flush-to-zero (results) and denormals-are-zero (inputs) on the
// calling thread and on every OpenMP thread, once per process; threads the
// OpenMP runtime creates later inherit the mode from the thread that creates
// them. Every HOST launcher that does arithmetic calls it first.
void flush_denormals_on_host_threads();

// Whether the calling thread runs with both modes on. False on a CPU this
// build has no flush mode for (then subnormals are kept and timed as such).
bool host_thread_flushes_denormals();

// What the report prints: "subnormals flushed to zero (FTZ, DAZ)" or why not.
const char* host_denormal_mode();

} // namespace stencil
