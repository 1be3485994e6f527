// The mini-app's options as one table: each row's name, value, help text
// and what it sets. The parser (options.cpp) and --help both read it, so
// the two cannot drift apart; tests/readme_options_test.py holds README's
// option table to --help.
#pragma once

#include "config/options.hpp"

#include <string>

namespace stencil {

// What the parser carries besides the Options: which of the exclusive
// grid options were given.
struct ParseState {
    Options& config;
    bool have_grid = false;
    bool have_local = false;
};

// A bad value: the one line the user sees, e.g. "--steps: 0 must be positive".
struct BadOption {
    std::string message;
};

struct OptionSpec {
    const char* group; // the --help section
    const char* name;  // "--grid"
    const char* value; // "NX,NY,NZ"; nullptr for a flag, which takes no value
    const char* help;  // one or more lines ('\n'); --help indents the later ones
    // Sets what the option means from its value ("" for a flag); throws
    // BadOption.
    void (*set)(ParseState& state, const char* name, const std::string& value);
};

// Every option, in --help's order, groups together; ends with --help.
const OptionSpec* option_table(int& count);

} // namespace stencil
