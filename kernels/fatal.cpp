#include "fatal.hpp"

#include <cstdio>
#include <cstdlib>

namespace stencil {
namespace {

void print_and_abort(const std::string& message) {
    std::fprintf(stderr, "stencil: fatal: %s\n", message.c_str());
    std::fflush(stderr);
    std::abort();
}

FatalHandler g_handler = print_and_abort;

} // namespace

FatalHandler set_fatal_handler(FatalHandler handler) {
    FatalHandler previous = g_handler;
    g_handler = handler ? handler : print_and_abort;
    return previous;
}

void fatal(const std::string& message) {
    g_handler(message);
    std::abort(); // a handler that returns is a bug; never continue past a fatal error
}

void fatal_check(const char* expr, const char* file, int line, const std::string& detail) {
    fatal(std::string(expr) + " failed at " + file + ":" + std::to_string(line) + ": " + detail);
}

} // namespace stencil
