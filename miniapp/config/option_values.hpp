// The parsers of option values the option table uses (option_table.cpp):
// each returns the value or throws BadOption with one line naming the
// option and what is wrong with the text.
#pragma once

#include "config/option_table.hpp"
#include "config/options.hpp"

#include <array>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace stencil {

long parse_integer(const std::string& text, const std::string& option);
int positive(const std::string& text, const std::string& option);
// An integer from low to high, one line naming the range otherwise.
int integer_between(const std::string& text, const std::string& option, int low, int high);
int non_negative(const std::string& text, const std::string& option);
double positive_real(const std::string& text, const std::string& option);
// --progress: 0 (every step) or a positive number of seconds.
double non_negative_real(const std::string& text, const std::string& option);
// --checkpoint-every TIME: NUMBER UNIT parts, hours before minutes before
// seconds (90s, 15m, 1.5h, 1h30m, 2h15m30s), summed; never zero.
double wall_time(const std::string& text, const std::string& option);
bool has_letter(const std::string& text);
std::string path_value(const std::string& text, const std::string& option);
std::vector<std::string> split_commas(const std::string& text);
std::array<int, 3> triple(const std::string& text, const std::string& option, bool allow_zero);
void axis_index(const std::string& text, const std::string& option, int& axis, int& index);
// --comm's words (auto, then every halo path's name, comm_mode.hpp), and
// the choice a word names.
const char* comm_words();
CommChoice comm_choice(const std::string& text, const std::string& option);

template <class E, std::size_t N>
E one_of(const std::string& text, const std::string& option,
         const std::pair<const char*, E> (&choices)[N]) {
    std::string names;
    for (std::size_t i = 0; i < N; ++i) {
        if (text == choices[i].first) return choices[i].second;
        names += std::string(i == 0 ? "" : i + 1 == N ? " or " : ", ") + choices[i].first;
    }
    throw BadOption{option + ": '" + text + "' is not " + names};
}

} // namespace stencil
