// The mini-app's options as one table: each row's name, value, help text
// and what it sets. The parser (options.cpp), --help and the option page
// (--help-markdown, docs/OPTIONS.md) all read it, so they cannot drift
// apart; tests/readme_options_test.py holds README's option table to --help.
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

// Every option, in --help's order, groups together; ends with --help
// and --help-markdown.
const OptionSpec* option_table(int& count);

// An --overlap or --pack value as the user writes it ("auto", "fused").
const char* choice_name(OverlapChoice choice);
const char* choice_name(PackChoice choice);
const char* choice_name(GraphChoice choice);

// The option page's longer text (--help-markdown, docs/OPTIONS.md) for the
// options that have more to say than their help line; option_details.cpp.
struct OptionDetail {
    const char* name;     // an option of the table, "--halo-depth"
    const char* markdown; // paragraphs or a list, as the page shows them
};
const OptionDetail* option_details(int& count);
// The outputs', restarts' and checks' part of them (option_details_io.cpp).
const OptionDetail* output_option_details(int& count);

} // namespace stencil
