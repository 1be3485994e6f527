#include "crc32.hpp"

#include <array>
#include <cstring>

namespace stencil {
namespace {

// Bit-reflected form, as zlib: bit 31 is x^0, and the polynomial
// x^32 + x^26 + ... + 1 without its x^32 term reads 0xEDB88320.
constexpr std::uint32_t kPolynomial = 0xEDB88320u;
constexpr std::uint32_t kOne = 0x80000000u; // the polynomial 1 (x^0)

// Eight tables: slicing-by-8 feeds 8 bytes per step, a few GB/s on one core.
using Tables = std::array<std::array<std::uint32_t, 256>, 8>;

Tables make_tables() {
    Tables t{};
    for (std::uint32_t n = 0; n < 256; ++n) {
        std::uint32_t c = n;
        for (int bit = 0; bit < 8; ++bit)
            c = c & 1 ? (c >> 1) ^ kPolynomial : c >> 1;
        t[0][n] = c;
    }
    for (std::uint32_t n = 0; n < 256; ++n)
        for (int k = 1; k < 8; ++k)
            t[k][n] = (t[k - 1][n] >> 8) ^ t[0][t[k - 1][n] & 0xFF];
    return t;
}

const Tables& tables() {
    static const Tables t = make_tables();
    return t;
}

// a * b modulo the polynomial (both reflected).
std::uint32_t multiply(std::uint32_t a, std::uint32_t b) {
    std::uint32_t product = 0;
    for (std::uint32_t bit = kOne; bit != 0; bit >>= 1) {
        if (a & bit) product ^= b;
        b = b & 1 ? (b >> 1) ^ kPolynomial : b >> 1; // b *= x
    }
    return product;
}

// x^(8 * bytes) modulo the polynomial, by repeated squaring.
std::uint32_t x_to_8n(std::uint64_t bytes) {
    std::uint32_t result = kOne;
    std::uint32_t power = kOne >> 8; // x^8
    for (; bytes; bytes >>= 1, power = multiply(power, power))
        if (bytes & 1) result = multiply(result, power);
    return result;
}

std::uint32_t feed_bytes(std::uint32_t reg, const unsigned char* p, std::size_t n) {
    const Tables& t = tables();
    for (; n >= 8; n -= 8, p += 8) {
        std::uint32_t lo, hi; // little-endian words, as the tables expect
        std::memcpy(&lo, p, 4);
        std::memcpy(&hi, p + 4, 4);
        lo ^= reg;
        reg = t[7][lo & 0xFF] ^ t[6][(lo >> 8) & 0xFF] ^ t[5][(lo >> 16) & 0xFF] ^ t[4][lo >> 24] ^
              t[3][hi & 0xFF] ^ t[2][(hi >> 8) & 0xFF] ^ t[1][(hi >> 16) & 0xFF] ^ t[0][hi >> 24];
    }
    for (; n; --n, ++p)
        reg = t[0][(reg ^ *p) & 0xFF] ^ (reg >> 8);
    return reg;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "feed_bytes reads little-endian words (x86-64 and AArch64 both are)"
#endif

} // namespace

void RawCrc32::feed(const void* data, std::size_t bytes) {
    reg_ = feed_bytes(reg_, static_cast<const unsigned char*>(data), bytes);
    length_ += bytes;
}

void RawCrc32::skip(std::uint64_t bytes) {
    if (bytes == 0) return;
    length_ += bytes;
    if (reg_ == 0) return; // zeros fed from zero stay zero
    auto it = shifts_.find(bytes);
    if (it == shifts_.end()) it = shifts_.emplace(bytes, x_to_8n(bytes)).first;
    reg_ = multiply(reg_, it->second);
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
    return ~(multiply(0xFFFFFFFFu, x_to_8n(length)) ^ raw);
}

std::uint32_t crc32_of(const void* data, std::size_t bytes) {
    RawCrc32 crc;
    crc.feed(data, bytes);
    return standard_crc32(crc.value(), bytes);
}

} // namespace stencil
