// --help-markdown: the option table as a Markdown page, committed as
// docs/OPTIONS.md (tests/options_page_test.sh holds the two equal). Each
// option's heading and first paragraph are its row in option_table.cpp,
// as --help prints them; the longer text below that lives once, in
// option_details.cpp or, for the outputs, restarts and checks,
// option_details_io.cpp, keyed by the option's name: --help stays short.
#include "config/option_table.hpp"
#include "config/options.hpp"

#include <cstring>
#include <stdexcept>

namespace stencil {
namespace {

// The help text as one paragraph: --help's line breaks become spaces.
std::string one_paragraph(const char* help) {
    std::string text = help;
    for (char& c : text)
        if (c == '\n') c = ' ';
    return text;
}

const char* detail_of(const char* name) {
    int count = 0;
    const OptionDetail* details = option_details(count);
    for (int i = 0; i < count; ++i)
        if (std::strcmp(details[i].name, name) == 0) return details[i].markdown;
    return nullptr;
}

// A detail for a name the table does not have would never be printed.
void check_details(const OptionSpec* table, int count) {
    int n = 0;
    const OptionDetail* details = option_details(n);
    for (int k = 0; k < n; ++k) {
        bool found = false;
        for (int i = 0; i < count && !found; ++i)
            found = std::strcmp(details[k].name, table[i].name) == 0;
        if (!found)
            throw std::logic_error(std::string("option_details.cpp: no option ") + details[k].name);
    }
}

} // namespace

std::string help_markdown() {
    int count = 0;
    const OptionSpec* table = option_table(count);
    check_details(table, count);
    std::string page = "# stencil-miniapp options\n\n"
                       "<!-- Made by `stencil-miniapp --help-markdown > docs/OPTIONS.md` from\n"
                       "miniapp/config/option_table.cpp, option_details.cpp and\n"
                       "option_details_io.cpp: edit those, not this page (the test\n"
                       "options_page_matches_binary compares them). -->\n\n"
                       "`mpirun -np N stencil-miniapp [options]`, one rank per GPU. An option's\n"
                       "value follows it (`--grid 256,256,256`) or an `=` (`--grid=256,256,256`).\n"
                       "An option given twice counts as the last, with a warning (job scripts\n"
                       "put their defaults first). `stencil-miniapp --help` prints the first\n"
                       "paragraph of each.\n";
    for (int i = 0; i < count; ++i) {
        const OptionSpec& o = table[i];
        if (i == 0 || std::strcmp(o.group, table[i - 1].group) != 0)
            page += std::string("\n## ") + o.group + "\n";
        page += std::string("\n### `") + o.name + (o.value ? std::string(" ") + o.value : "") +
                "`\n\n" + one_paragraph(o.help) + "\n";
        if (const char* more = detail_of(o.name)) page += std::string("\n") + more + "\n";
    }
    return page;
}

} // namespace stencil
