#include "config/options.hpp"

#include "config/option_table.hpp"
#include "graph.hpp"
#include "sponge.hpp"
#include "tuning_cache.hpp"

#include <cstring>
#include <filesystem>
#include <map>

namespace stencil {
namespace {

constexpr std::size_t kNameColumn = 24; // where help text starts in --help

// "--grid NX,NY,NZ" as --help shows it.
std::string synopsis(const OptionSpec& o) {
    return std::string(o.name) + (o.value ? std::string(" ") + o.value : std::string());
}

const OptionSpec* find_option(const std::string& name) {
    int count = 0;
    const OptionSpec* table = option_table(count);
    for (int i = 0; i < count; ++i)
        if (name == table[i].name) return &table[i];
    return nullptr;
}

} // namespace

std::string periodic_axes(const std::array<bool, 3>& periodic) {
    std::string axes;
    for (int a = 0; a < 3; ++a)
        if (periodic[a]) axes += std::string(axes.empty() ? "" : ",") + char('x' + a);
    return axes.empty() ? "none" : axes;
}

std::string usage() {
    std::string text =
        "usage: stencil-miniapp [options]   (launch with mpirun/srun; one rank per GPU)\n"
        "Acoustic wave propagation: leapfrog in time, order-2R Laplacian in space, Ricker "
        "source.\n";
    int count = 0;
    const OptionSpec* table = option_table(count);
    for (int i = 0; i < count; ++i) {
        const OptionSpec& o = table[i];
        if (i == 0 || std::strcmp(o.group, table[i - 1].group) != 0)
            text += std::string("\n") + o.group + "\n";
        const std::string left = "  " + synopsis(o);
        // A long synopsis gets a line of its own; the help starts below it.
        text += left + (left.size() + 2 <= kNameColumn ? std::string(kNameColumn - left.size(), ' ')
                                                       : "\n" + std::string(kNameColumn, ' '));
        for (const char* h = o.help; *h; ++h) {
            text += *h;
            if (*h == '\n') text += std::string(kNameColumn, ' ');
        }
        text += '\n';
    }
    return text;
}

namespace {

// Every file goes to FOLDER/NAME; in the root directory that is a mess at
// best (and as root it succeeds). "" or one line.
std::string root_folder(const char* option, const std::string& folder, const char* what) {
    const std::filesystem::path path = std::filesystem::path(folder).lexically_normal();
    if (path.has_root_directory() && path.relative_path().empty())
        return std::string(option) + " " + folder +
               ": the root directory; name a folder for this run's " + what;
    return {};
}

// The launch shape and --tuning: a valid shape, not both chosen, a cache file.
std::string tuning_problem(const Options& c) {
    if (const std::string why = validate(c.shape); !why.empty()) return "bad kernel tuning: " + why;
    const LaunchShape& t = c.shape;
    if (c.tuning_mode != "off" && (t.names_tile_fields() || t.body != WaveBody::Auto))
        return "--tuning " + c.tuning_mode +
               " chooses the launch shape; drop --update/--block-x/--block-y/--window/--rows/"
               "--planes-ahead, or use --tuning off";
    if (const std::string why = tuning_mode_problem(c.tuning_mode); !why.empty())
        return "--tuning " + why;
    std::error_code ignored;
    if (c.tuning_mode != "off" && c.tuning_mode != "auto" &&
        std::filesystem::is_directory(c.tuning_mode, ignored))
        return "--tuning " + c.tuning_mode + ": a directory; name the cache file, such as " +
               c.tuning_mode + "/tuning-cache.json";
    return {};
}

// The value after option `name` at argv[a] (a moves on to it). A next
// word that starts with "--" is refused: --timeline --report and --label
// --chekcsum are a value forgotten, the next option (or a misspelt one)
// taken for it.
std::string value_after(int argc, char** argv, int& a, const std::string& name) {
    if (a + 1 >= argc) throw BadOption{name + " needs a value"};
    const std::string next = argv[++a];
    if (next.rfind("--", 0) == 0)
        throw BadOption{name + " needs a value, and " + next +
                        (find_option(next)
                             ? " is an option"
                             : " looks like one; if it is the value, write " + name + "=" + next)};
    return next;
}

// The options given so far and their values, quoted; a warning line in
// Options::repeated for each given more than once, replaced as it repeats.
class GivenOptions {
public:
    void note(Options& c, const OptionSpec& option, const std::string& value) {
        std::string& values = given_[option.name];
        const bool again = !values.empty();
        values += (again ? ", then '" : "'") + value + "'";
        if (!again) return;
        const std::string head = std::string(option.name) + " given more than once";
        const std::string line =
            head + (option.value ? " (" + values + ")" : "") + ": the last counts";
        for (std::string& seen : c.repeated)
            if (seen.compare(0, head.size(), head) == 0) {
                seen = line;
                return;
            }
        c.repeated.push_back(line);
    }

private:
    std::map<std::string, std::string> given_;
};

// "help", "help-markdown" or "version" where `name` asks for that text
// instead of a run, else nullptr. These take no value: --version=1 is a
// mistake, not a request.
const char* text_asked_for(const std::string& name, bool has_value) {
    const char* text = name == "--help" || name == "-h" ? "help"
                       : name == "--help-markdown"      ? "help-markdown"
                       : name == "--version"            ? "version"
                                                        : nullptr;
    if (text && has_value) throw BadOption{name + " takes no value"};
    return text;
}

// Empty when --sponge fits the grid's axes and the profile's integers.
std::string sponge_problem(const Options& c) {
    if (c.sponge > kMaxSpongeWidth)
        return "--sponge " + std::to_string(c.sponge) + ": at most " +
               std::to_string(kMaxSpongeWidth) + " cells";
    if (c.sponge > 0 && (c.periodic[0] || c.periodic[1] || c.periodic[2]))
        return "--sponge " + std::to_string(c.sponge) +
               " absorbs at the grid's edges, and a periodic axis has none: use --sponge 0 "
               "with --periodic " +
               periodic_axes(c.periodic);
    return {};
}

} // namespace

std::string parse_options(int argc, char** argv, Options& c) {
    ParseState state{c};
    GivenOptions given;
    try {
        for (int a = 1; a < argc; ++a) {
            std::string name = argv[a], value;
            const auto eq = name.find('=');
            if (eq != std::string::npos) value = name.substr(eq + 1), name = name.substr(0, eq);
            if (const char* text = text_asked_for(name, eq != std::string::npos)) return text;
            const OptionSpec* option = find_option(name);
            if (!option) throw BadOption{"unknown option '" + name + "'"};
            if (option->value && eq == std::string::npos) {
                value = value_after(argc, argv, a, name);
            } else if (!option->value && eq != std::string::npos) {
                throw BadOption{name + " takes no value"};
            }
            option->set(state, option->name, value);
            given.note(c, *option, value);
        }
    } catch (const BadOption& bad) {
        return bad.message;
    }
    const bool have_grid = state.have_grid, have_local = state.have_local;
    if (have_grid && have_local) return "use --grid or --local, not both";
    if (!have_grid && !have_local) c.grid = {128, 128, 128};
    if (const std::string why = tuning_problem(c); !why.empty()) return why;
    if (const std::string why = root_folder("--output", c.output, "files"); !why.empty())
        return why;
    if (const std::string why = root_folder("--checkpoint-dir", c.checkpoint_dir, "checkpoints");
        !why.empty())
        return why;
    // The wave kernel's rows are bounded per radius (max_fused_rows).
    if (c.shape.rows > max_fused_rows(c.radius, FusedKernel::Wave))
        return "--rows " + std::to_string(c.shape.rows) +
               ": the wave kernel at R=" + std::to_string(c.radius) + " is built for at most " +
               std::to_string(max_fused_rows(c.radius, FusedKernel::Wave)) + " rows per thread";
    if (c.shape.ahead > 1)
        if (const std::string why =
                fits(resolve_shape(c.shape, c.radius, c.precision, FusedKernel::Wave), c.radius,
                     c.precision, FusedKernel::Wave);
            !why.empty())
            return "--planes-ahead " + std::to_string(c.shape.ahead) + ": " + why;
    if (c.graphs == GraphChoice::On && !graphs_available())
        return "--graphs on: this build has no graphs (the HOST back-end, or HIP before ROCm "
               "6.2); use --graphs auto or off";
    if (c.aids.write_error() && c.snapshot_every == 0)
        return "--inject-fault write-error needs --snapshot-every";
    // A restart's step and the job's ranks are known later (prepare, drive).
    if (const std::string why = c.aids.reach_problem({0, c.steps, c.snapshot_every, 1, false});
        !why.empty())
        return why;
    return sponge_problem(c);
}

} // namespace stencil
