#include "testing/test_aids.hpp"

#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <thread>
#include <utility>

namespace stencil {
namespace {

// N of fail-rank=N: a non-negative int, refused as the option table's
// numbers are ("'x' is not an integer", "... is out of range", "-1 must not
// be negative").
std::string parse_rank(const std::string& text, int& rank) {
    const bool digits =
        !text.empty() &&
        text.find_first_not_of("0123456789", text[0] == '-' ? 1 : 0) == std::string::npos &&
        text != "-";
    if (!digits) return "'" + text + "' is not an integer";
    errno = 0;
    const long v = std::strtol(text.c_str(), nullptr, 10);
    if (errno == ERANGE || v < INT32_MIN || v > INT32_MAX)
        return text + " is out of range (at most " + std::to_string(INT32_MAX) + ")";
    if (v < 0) return text + " must not be negative";
    rank = int(v);
    return {};
}

} // namespace

std::string TestAids::inject_fault(const std::string& value) {
    if (value == "drop-face")
        drop_face_ = true;
    else if (value == "short-ring")
        short_ring_ = true;
    else if (value == "nan")
        nan_ = true;
    else if (value.rfind("fail-rank=", 0) == 0)
        return parse_rank(value.substr(10), fail_rank_);
    else if (value.rfind("late-rank=", 0) == 0)
        return parse_rank(value.substr(10), late_rank_);
    else if (value == "write-error")
        write_error_ = true;
    else if (value == "short-fused-pack")
        short_fused_pack_ = true;
    else if (value == "early-boundary")
        early_boundary_ = true;
    else if (value == "peer-skip-wait")
        peer_skip_wait_ = true;
    else if (value == "peer-early-signal")
        peer_early_signal_ = true;
    else if (value == "peer-wrong-face")
        peer_wrong_face_ = true;
    else if (value == "peer-wrong-level")
        peer_wrong_level_ = true;
    else if (value == "skip-slab-cell")
        skip_slab_cell_ = true;
    else
        return "'" + value +
               "' is not drop-face, short-ring, short-fused-pack, early-boundary, "
               "peer-skip-wait, peer-early-signal, peer-wrong-face, peer-wrong-level, "
               "skip-slab-cell, "
               "nan, "
               "fail-rank=N, late-rank=N or write-error";
    return {};
}

std::string TestAids::planted() const {
    std::string words;
    const auto add = [&words](bool on, const std::string& what) {
        if (on) words += (words.empty() ? "" : ", ") + what;
    };
    add(poison_halo_, "--poison-halo");
    add(drop_face_, "--inject-fault drop-face");
    add(short_ring_, "--inject-fault short-ring");
    add(short_fused_pack_, "--inject-fault short-fused-pack");
    add(early_boundary_, "--inject-fault early-boundary");
    add(peer_skip_wait_, "--inject-fault peer-skip-wait");
    add(peer_early_signal_, "--inject-fault peer-early-signal");
    add(peer_wrong_face_, "--inject-fault peer-wrong-face");
    add(peer_wrong_level_, "--inject-fault peer-wrong-level");
    add(skip_slab_cell_, "--inject-fault skip-slab-cell");
    add(nan_, "--inject-fault nan");
    add(fail_rank_ >= 0, "--inject-fault fail-rank=" + std::to_string(fail_rank_));
    add(late_rank_ >= 0, "--inject-fault late-rank=" + std::to_string(late_rank_));
    add(write_error_, "--inject-fault write-error");
    return words;
}

std::string TestAids::rank_problem(int ranks) const {
    for (const auto& [name, rank] : {std::pair<const char*, int>{"fail-rank", fail_rank_},
                                     std::pair<const char*, int>{"late-rank", late_rank_}})
        if (rank >= ranks)
            return std::string("--inject-fault ") + name + "=" + std::to_string(rank) +
                   ": the job has " + std::to_string(ranks) + " rank" + (ranks == 1 ? "" : "s") +
                   ", so it would plant nothing";
    return {};
}

std::string ranks_per_node_from_environment(int& ranks_per_node) {
    ranks_per_node = 0;
    const char* text = std::getenv("STENCIL_NODE_RANKS");
    if (!text) return {};
    char* end = nullptr;
    errno = 0;
    const long n = std::strtol(text, &end, 10);
    if (*text < '0' || *text > '9' || *end != '\0' || errno == ERANGE || n < 1 || n > INT_MAX)
        return std::string("STENCIL_NODE_RANKS='") + text +
               "' is not a whole number of ranks per node, 1 or more; unset it to take the nodes "
               "MPI sees";
    ranks_per_node = int(n);
    return {};
}

void TestAids::hold_back(int rank) const {
    if (rank == late_rank_)
        std::this_thread::sleep_for(std::chrono::duration<double>(kLateRankSeconds));
}

} // namespace stencil
