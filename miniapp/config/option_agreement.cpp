#include "config/option_agreement.hpp"

#include "io/crc32.hpp"
#include "mpi_util.hpp"

#include <cstdint>
#include <sstream>
#include <vector>

namespace stencil {
namespace {

// The option a word names ("--steps" of "--steps=12"), or "" for a value.
std::string option_of(const std::string& word) {
    return word.rfind("--", 0) == 0 ? word.substr(0, word.find('=')) : std::string();
}

// The words with "--name=value" split in two, as the parser takes them.
std::vector<std::string> split_values(const std::vector<std::string>& words) {
    std::vector<std::string> split;
    for (const std::string& word : words) {
        const auto eq = word.find('=');
        if (option_of(word).empty() || eq == std::string::npos) {
            split.push_back(word);
        } else {
            split.push_back(word.substr(0, eq));
            split.push_back(word.substr(eq + 1));
        }
    }
    return split;
}

// How this rank's arguments (`own`, on rank `rank`) differ from rank 0's
// (`rank0`), in a few words; "" where they do not.
std::string first_difference(const std::vector<std::string>& rank0,
                             const std::vector<std::string>& own, int rank) {
    const std::vector<std::string> theirs = split_values(rank0), mine = split_values(own);
    std::size_t i = 0;
    while (i < theirs.size() && i < mine.size() && theirs[i] == mine[i])
        ++i;
    if (i == theirs.size() && i == mine.size()) return {};
    const std::string on = " on rank " + std::to_string(rank);
    // The option of the first word that differs, or of the one before it
    // where that word is a value.
    const auto named = [&](const std::vector<std::string>& words) {
        if (i >= words.size()) return std::string();
        const std::string option = option_of(words[i]);
        return option.empty() && i > 0 ? option_of(words[i - 1]) : option;
    };
    const std::string a = named(theirs), b = named(mine);
    if (i >= theirs.size() || i >= mine.size()) {
        const std::string extra = a.empty() ? b : a;
        return (extra.empty() ? "an argument" : extra) + " is given" +
               (i >= theirs.size() ? on + " and not on rank 0" : " on rank 0 and not" + on);
    }
    // Different options at the same place (one repeated, or in another
    // order): the words themselves say it best.
    if (a != b)
        return "the command lines part " +
               (i == 0 ? std::string("at their first word") : "after '" + theirs[i - 1] + "'") +
               ": '" + theirs[i] + "' on rank 0, '" + mine[i] + "'" + on;
    return (a.empty() ? "an argument" : a) + " is '" + theirs[i] + "' on rank 0 and '" + mine[i] +
           "'" + on;
}

} // namespace

std::string options_differ_across_ranks(int argc, char** argv) {
    std::vector<std::string> mine;
    std::string text;
    for (int a = 1; a < argc; ++a) {
        mine.emplace_back(argv[a]);
        text += mine.back() + '\0';
    }
    // The CRC-32 and the length, each as a minimum and a negated maximum,
    // in one reduction: equal everywhere where the minima are the maxima.
    const long long crc = crc32_of(text.data(), text.size()), length = (long long)text.size();
    long long range[4] = {crc, -crc, length, -length};
    MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, range, 4, MPI_LONG_LONG, MPI_MIN, MPI_COMM_WORLD));
    if (range[0] == -range[1] && range[2] == -range[3]) return {};
    // Rank 0's words go to every rank, which says how its own differ.
    std::vector<std::string> theirs;
    std::istringstream words(broadcast_text(MPI_COMM_WORLD, text));
    for (std::string word; std::getline(words, word, '\0');)
        theirs.push_back(word);
    std::string problem = first_difference(theirs, mine, world_rank());
    if (!problem.empty())
        problem = "the ranks were given different options: " + problem +
                  "; every rank must run the same command line (an MPMD launch with ':' gives "
                  "each part its own)";
    return first_problem(MPI_COMM_WORLD, problem);
}

} // namespace stencil
