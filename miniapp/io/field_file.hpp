// One raw file of the global field (float32 or float64), written by every rank at once
// with collective MPI-IO: complete under its final name, or absent.
#pragma once

#include "decomposition.hpp"
#include "io/crc32.hpp"

#include <cstdint>
#include <future>
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

// For a file that a library wrote collectively (io/hdf5_file.cpp) with the
// global field inside it as write_field_file lays it out (x fastest, the
// run's type, contiguous), from byte `data_offset`, between the library's
// own bytes:
// - start_field_crc, as soon as data_offset is known: this rank's share
//   of the file's CRC register, computed from `interior` on another thread
//   (`d` and `interior` must outlive it);
// - seal_field_file, collective over d.cart, once the file is closed
//   under partial_path(path): each rank reads its box back and compares,
//   as write_field_file does; rank 0 reads the bytes around the field into
//   the CRC-32 (so no rank reads the whole file); renamed to `path` when
//   every rank agrees, else removed, and OutputFailure on every rank.
template <class T>
std::future<RawCrc32> start_field_crc(const Decomposition& d, const std::vector<T>& interior,
                                      std::uint64_t data_offset);
template <class T>
FieldFile seal_field_file(const Decomposition& d, const std::string& path,
                          std::uint64_t data_offset, const std::vector<T>& interior,
                          std::future<RawCrc32> field_crc);

// Collective over d.cart: this rank's box of the global raw file `path`
// into `interior` (x fastest), read with MPI-IO, and the file checked
// against `expected` (its length, and its CRC-32 combined from the parts
// the ranks read, so no rank reads the whole file). Returns "" or, on every
// rank, the same line saying what is wrong.
template <class T>
std::string read_field_file(const Decomposition& d, const std::string& path,
                            const FieldFile& expected, std::vector<T>& interior);

} // namespace stencil
