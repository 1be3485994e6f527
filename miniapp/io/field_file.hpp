// One raw file of the global field (float32 or float64), written by every rank at once
// with collective MPI-IO: complete under its final name, or absent.
#pragma once

#include "decomposition.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace stencil {

struct FieldFile {
    std::uint64_t bytes = 0;
    std::uint32_t crc32 = 0; // the standard CRC-32 of the whole file (valid on rank 0)
};

// Collective over d.cart. Each rank writes `interior` (its box, x fastest)
// at its place in the global array (x fastest on disk), under a partial
// name, then reads its part back and compares: Open MPI's default I/O
// component has been seen to report success for writes that hit a full
// disk. Only when every rank agrees is the file renamed to `path`. On any
// failure the partial file is removed and every rank throws OutputFailure
// with "writing PATH: reason". `inject_no_space`: this rank behaves as if
// its write had failed with ENOSPC (tests).
// T: float or double, the run's precision.
template <class T>
FieldFile write_field_file(const Decomposition& d, const std::string& path,
                           const std::vector<T>& interior, bool inject_no_space);

// Collective over d.cart: this rank's box of the global raw file `path`
// into `interior` (x fastest), read with MPI-IO, and the file checked
// against `expected` (its length, and its CRC-32 combined from the parts
// the ranks read, so no rank reads the whole file). Returns "" or, on every
// rank, the same line saying what is wrong.
template <class T>
std::string read_field_file(const Decomposition& d, const std::string& path,
                            const FieldFile& expected, std::vector<T>& interior);

} // namespace stencil
