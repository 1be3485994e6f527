#include "testing/test_aids.hpp"

#include <cerrno>
#include <cstdint>
#include <cstdlib>

namespace stencil {
namespace {

// N of fail-rank=N: a non-negative int, refused as the option table's
// numbers are ("'x' is not an integer", "-1 must not be negative").
std::string parse_rank(const std::string& text, int& rank) {
    errno = 0;
    char* end = nullptr;
    const long v = std::strtol(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || errno == ERANGE || v < INT32_MIN || v > INT32_MAX)
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
    else if (value == "write-error")
        write_error_ = true;
    else if (value == "short-fused-pack")
        short_fused_pack_ = true;
    else if (value == "early-boundary")
        early_boundary_ = true;
    else
        return "'" + value +
               "' is not drop-face, short-ring, short-fused-pack, early-boundary, nan, "
               "fail-rank=N or write-error";
    return {};
}

} // namespace stencil
