#include "testing/test_aids.hpp"

#include <algorithm>
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
    // The last --inject-fault counts: the faults an earlier one planted go,
    // and --poison-halo, another option, stays.
    const bool poison = poison_halo_;
    *this = TestAids{};
    poison_halo_ = poison;
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
    for (const std::string& aid : planted_list())
        words += (words.empty() ? "" : ", ") + aid;
    return words;
}

std::vector<std::string> TestAids::planted_list() const {
    std::vector<std::string> words;
    const auto add = [&words](bool on, const std::string& what) {
        if (on) words.push_back(what);
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

std::string TestAids::exchange_bug() const {
    const std::vector<std::string> clean = without_exchange_bugs().planted_list();
    for (const std::string& aid : planted_list())
        if (std::find(clean.begin(), clean.end(), aid) == clean.end()) return aid;
    return {};
}

std::string TestAids::reach_problem(const Reach& run) const {
    const std::string after =
        run.first > 0 ? "the run continues from step " + std::to_string(run.first) + ", past it"
                      : "--steps " + std::to_string(run.steps) + " ends the run before it";
    for (const auto& [asked, name] : {std::pair<bool, std::string>{nan_, "nan"},
                                      {fail_rank_ >= 0, "fail-rank=" + std::to_string(fail_rank_)}})
        if (asked && (run.first >= kFaultStep || run.steps < kFaultStep))
            return "--inject-fault " + name + " strikes after step " + std::to_string(kFaultStep) +
                   ", and " + after + ": it would plant nothing";
    const int snapshots = run.snapshot_every > 0
                              ? run.steps / run.snapshot_every - run.first / run.snapshot_every
                              : 0;
    if (write_error_ && snapshots < 2)
        return "--inject-fault write-error strikes at the run's second snapshot, and it writes " +
               std::to_string(snapshots) +
               (run.snapshot_every > 0
                    ? " (--snapshot-every " + std::to_string(run.snapshot_every) + ")"
                    : " (--snapshot-every is 0)") +
               ": it would plant nothing";
    if (const std::string bug = exchange_bug(); !bug.empty() && run.comm_none && run.ranks > 1)
        return bug + " plants a bug in the halo exchange, and --comm none on " +
               std::to_string(run.ranks) +
               " ranks moves no halo between them (its field is not the one-domain answer "
               "anyway, and --check cannot run): nothing could catch it; use another --comm, or "
               "one rank";
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
