#include "config/option_values.hpp"

#include <cctype>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <sstream>
#include <string>
#include <utility>

namespace stencil {

long parse_integer(const std::string& text, const std::string& option) {
    errno = 0;
    char* end = nullptr;
    const long v = std::strtol(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || std::isspace((unsigned char)text[0]))
        throw BadOption{option + ": '" + text + "' is not an integer"};
    if (errno == ERANGE || v < INT32_MIN || v > INT32_MAX)
        throw BadOption{option + ": " + text + " is out of range (at most " +
                        std::to_string(INT32_MAX) + ")"};
    return v;
}

int positive(const std::string& text, const std::string& option) {
    const long v = parse_integer(text, option);
    if (v <= 0) throw BadOption{option + ": " + text + " must be positive"};
    return int(v);
}

int integer_between(const std::string& text, const std::string& option, int low, int high) {
    errno = 0;
    char* end = nullptr;
    const long long v = std::strtoll(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || std::isspace((unsigned char)text[0]))
        throw BadOption{option + ": '" + text + "' is not an integer"};
    if (errno == ERANGE || v < low || v > high)
        throw BadOption{option + ": " + text + " must be " + std::to_string(low) +
                        (high == low + 1 ? " or " : " to ") + std::to_string(high)};
    return int(v);
}

int non_negative(const std::string& text, const std::string& option) {
    const long v = parse_integer(text, option);
    if (v < 0) throw BadOption{option + ": " + text + " must not be negative"};
    return int(v);
}

double positive_real(const std::string& text, const std::string& option) {
    errno = 0;
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || errno == ERANGE || !(v > 0) || !std::isfinite(v))
        throw BadOption{option + ": '" + text + "' is not a finite positive number"};
    return v;
}

// --progress: 0 (every step) or a positive number of seconds.
double non_negative_real(const std::string& text, const std::string& option) {
    errno = 0;
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || errno == ERANGE || !(v >= 0) || !std::isfinite(v))
        throw BadOption{option + ": '" + text + "' is not a finite number of seconds, 0 or more"};
    return v;
}

// --checkpoint-every TIME: NUMBER UNIT parts, hours before minutes before
// seconds (90s, 15m, 1.5h, 1h30m, 2h15m30s), summed; never zero.
double wall_time(const std::string& text, const std::string& option) {
    const std::string unclear = option + ": '" + text +
                                "' is neither a step count (0: none) nor a wall time such as "
                                "90s, 15m, 2h or 1h30m";
    double seconds = 0;
    std::size_t at = 0;
    int previous = 3; // the unit before: 2 h, 1 m, 0 s
    while (at < text.size()) {
        const char* start = text.c_str() + at;
        char* end = nullptr;
        const double v = std::isdigit((unsigned char)*start) ? std::strtod(start, &end) : -1;
        const char unit = v >= 0 ? *end : '\0';
        const int rank = unit == 'h' ? 2 : unit == 'm' ? 1 : unit == 's' ? 0 : -1;
        if (rank < 0 || rank >= previous || !std::isfinite(v)) throw BadOption{unclear};
        seconds += v * (rank == 2 ? 3600 : rank == 1 ? 60 : 1);
        previous = rank, at = std::size_t(end - text.c_str()) + 1;
    }
    if (!(seconds > 0) || !std::isfinite(seconds))
        throw BadOption{option + ": " + text +
                        " is no interval; give a positive wall time (90s, 15m, 1h30m), or 0 for "
                        "no checkpoints"};
    return seconds;
}

bool has_letter(const std::string& text) {
    for (const char ch : text)
        if (std::isalpha((unsigned char)ch)) return true;
    return false;
}

// A file or folder the user names. Empty is refused here: it is what an
// unset variable in a job script gives, and "" + "/" + name would write
// into the root directory.
std::string path_value(const std::string& text, const std::string& option) {
    if (text.empty())
        throw BadOption{option + ": the path is empty (an unset variable in the job script?)"};
    return text;
}

// "a,b,,c" -> {"a", "b", "", "c"}; as getline splits, "a,b," -> {"a", "b"}.
std::vector<std::string> split_commas(const std::string& text) {
    std::vector<std::string> parts;
    std::stringstream stream(text);
    for (std::string part; std::getline(stream, part, ',');)
        parts.push_back(part);
    return parts;
}

std::array<int, 3> triple(const std::string& text, const std::string& option, bool allow_zero) {
    const std::vector<std::string> parts = split_commas(text);
    if (parts.size() != 3)
        throw BadOption{option + ": '" + text + "' is not three comma-separated integers"};
    std::array<int, 3> v{};
    for (int a = 0; a < 3; ++a)
        v[a] = allow_zero ? non_negative(parts[a], option) : positive(parts[a], option);
    return v;
}

// "z=64" -> axis 2, index 64.
void axis_index(const std::string& text, const std::string& option, int& axis, int& index) {
    if (text.size() < 3 || text[1] != '=' || (text[0] != 'x' && text[0] != 'y' && text[0] != 'z'))
        throw BadOption{option + ": '" + text + "' is not x=K, y=K or z=K"};
    axis = text[0] - 'x';
    index = non_negative(text.substr(2), option);
}

namespace {

// --comm's words and what each chooses: auto, then every halo path's name
// (comm_mode.hpp), in one table for the parser and the option's help.
struct CommWords {
    std::pair<const char*, CommChoice> entries[std::size(kCommModes) + 1];
};

const CommWords& comm_table() {
    static const CommWords table = [] {
        CommWords t{};
        t.entries[0] = {"auto", CommChoice{}};
        for (std::size_t i = 0; i < std::size(kCommModes); ++i)
            t.entries[i + 1] = {comm_mode_name(kCommModes[i]), CommChoice::of(kCommModes[i])};
        return t;
    }();
    return table;
}

} // namespace

const char* comm_words() {
    static const std::string words = [] {
        std::string w;
        for (const auto& entry : comm_table().entries)
            w += (w.empty() ? "" : "|") + std::string(entry.first);
        return w;
    }();
    return words.c_str();
}

CommChoice comm_choice(const std::string& text, const std::string& option) {
    return one_of(text, option, comm_table().entries);
}
} // namespace stencil
