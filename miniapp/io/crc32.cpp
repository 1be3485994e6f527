#include "io/crc32.hpp"

#include <cstdio>

#include <zlib.h>

namespace stencil {
namespace {

// zlib's crc32_z works on the standard register (preset to all ones,
// inverted at the end); inverting on the way in and out turns it into the
// raw register this file combines.
std::uint32_t feed_raw(std::uint32_t raw, const void* data, std::size_t bytes) {
    return ~std::uint32_t(crc32_z(~raw & 0xFFFFFFFFu, static_cast<const Bytef*>(data), bytes));
}

// crc32_combine_op(a, 0, op) multiplies a by op modulo the polynomial; with
// op = crc32_combine_gen64(n) = x^(8n), that appends n zero bytes to a raw
// register.
std::uint32_t append_zeros(std::uint32_t raw, uLong op) {
    return std::uint32_t(crc32_combine_op(raw, 0, op));
}

} // namespace

void RawCrc32::feed(const void* data, std::size_t bytes) {
    reg_ = feed_raw(reg_, data, bytes);
    length_ += bytes;
}

void RawCrc32::skip(std::uint64_t bytes) {
    if (bytes == 0) return;
    length_ += bytes;
    if (reg_ == 0) return; // zeros fed from zero stay zero
    auto it = shifts_.find(bytes);
    if (it == shifts_.end())
        it = shifts_.emplace(bytes, std::uint32_t(crc32_combine_gen64(z_off64_t(bytes)))).first;
    reg_ = append_zeros(reg_, it->second);
}

void RawCrc32::feed_at(std::uint64_t offset, const void* data, std::size_t bytes) {
    skip(offset - length_);
    feed(data, bytes);
}

void RawCrc32::extend_to(std::uint64_t length) {
    skip(length - length_);
}

std::uint32_t standard_crc32(std::uint32_t raw, std::uint64_t length) {
    // The standard CRC starts its register at all ones and inverts the
    // result; by linearity that is the all-ones register carried through
    // `length` zero bytes, XORed with the raw register, then inverted.
    const uLong shift = crc32_combine_gen64(z_off64_t(length));
    return ~(append_zeros(0xFFFFFFFFu, shift) ^ raw);
}

std::uint32_t crc32_of(const void* data, std::size_t bytes) {
    return std::uint32_t(crc32_z(0, static_cast<const Bytef*>(data), bytes));
}

std::string crc32_hex(std::uint32_t crc) {
    char text[9];
    std::snprintf(text, sizeof text, "%08x", crc);
    return text;
}

bool parse_crc32_hex(const std::string& text, std::uint32_t& crc) {
    if (text.size() != 8 || text.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)
        return false;
    crc = std::uint32_t(std::stoul(text, nullptr, 16));
    return true;
}

} // namespace stencil
