#include "testing/test_aids.hpp"

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <thread>
#include <utility>

namespace stencil {
namespace {

// N of fail-rank=N: a non-negative int, refused as the option table's
// numbers are ("'x' is not an integer", "-1 must not be negative").
std::string parse_rank(const std::string& text, int& rank) {
    errno = 0;
    char* end = nullptr;
    const long v = std::strtol(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || errno == ERANGE || v < INT32_MIN || v > INT32_MAX ||
        text.find_first_not_of("-0123456789") != std::string::npos)
        return "'" + text + "' is not an integer";
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
    else
        return "'" + value +
               "' is not drop-face, short-ring, short-fused-pack, early-boundary, nan, "
               "fail-rank=N, late-rank=N or write-error";
    return {};
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

void TestAids::hold_back(int rank) const {
    if (rank == late_rank_)
        std::this_thread::sleep_for(std::chrono::duration<double>(kLateRankSeconds));
}

} // namespace stencil
