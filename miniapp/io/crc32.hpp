// CRC-32 (the zlib/gzip/PNG polynomial) of a file that many ranks write in
// pieces, without any rank reading the whole file.
//
// Why this works: the CRC register is linear over GF(2). Call raw(M) the
// register after feeding M from zero. Then
//   raw(A || B)  = raw(A) * x^(8|B|) ^ raw(B)   (mod the polynomial), and
//   raw(A ^ B)   = raw(A) ^ raw(B)               for |A| = |B|.
// So each rank feeds its own pieces, in file order, as if every byte owned
// by another rank were zero (`RawCrc32::skip` jumps over those in
// O(log n), not byte by byte); the file's register is the XOR of the ranks'
// registers (MPI_BXOR), and `standard_crc32` turns it into the usual CRC
// that `zlib.crc32`, `gzip` or `crc32(1)` print for the file. The arithmetic
// is zlib's: `crc32_z` feeds bytes, `crc32_combine_gen64` makes x^(8n) and
// `crc32_combine_op` multiplies by it (zlib >= 1.2.12).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

namespace stencil {

class RawCrc32 {
public:
    // Appends `bytes` bytes of data.
    void feed(const void* data, std::size_t bytes);
    // Appends `bytes` zero bytes, in O(log bytes).
    void skip(std::uint64_t bytes);
    // Feeds `data` at byte `offset` of the file, skipping the zeros since
    // the last piece. Pieces must come in increasing offset order.
    void feed_at(std::uint64_t offset, const void* data, std::size_t bytes);
    // Pads with zeros up to `length` bytes in all.
    void extend_to(std::uint64_t length);

    // The file holding `a`'s bytes and `b`'s, each where the other has
    // zeros; both of one length.
    static RawCrc32 combined(const RawCrc32& a, const RawCrc32& b) {
        RawCrc32 both = a;
        both.reg_ ^= b.reg_;
        return both;
    }

    std::uint32_t value() const { return reg_; }
    std::uint64_t length() const { return length_; }

private:
    std::uint32_t reg_ = 0;
    std::uint64_t length_ = 0;
    std::map<std::uint64_t, std::uint32_t> shifts_; // x^(8n) by n: strides repeat
};

// The standard CRC-32 of a `length`-byte message whose raw register is `raw`.
std::uint32_t standard_crc32(std::uint32_t raw, std::uint64_t length);

// The standard CRC-32 of one buffer.
std::uint32_t crc32_of(const void* data, std::size_t bytes);

// "0a1b2c3d": a CRC as sidecars write it, and back (false if `text` is not one).
std::string crc32_hex(std::uint32_t crc);
bool parse_crc32_hex(const std::string& text, std::uint32_t& crc);

} // namespace stencil
