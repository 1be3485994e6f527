// Fatal-error reporting shared by every layer.
//
// kernels/ knows nothing of MPI, yet a failing GPU call on one rank must end
// the whole job rather than leave the other ranks waiting in a collective.
// The fix is a replaceable handler: by default it prints and aborts the
// process; halo/ installs one that prefixes the rank and calls MPI_Abort.
#pragma once

#include <string>

namespace stencil {

using FatalHandler = void (*)(const std::string& message);

// Installs `handler` and returns the previous one.
FatalHandler set_fatal_handler(FatalHandler handler);

// Reports `message` through the installed handler; never returns.
[[noreturn]] void fatal(const std::string& message);

// "expr failed at file:line: detail" -- the common shape of checked-call errors.
[[noreturn]] void fatal_check(const char* expr, const char* file, int line,
                              const std::string& detail);

} // namespace stencil
