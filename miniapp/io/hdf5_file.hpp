// One HDF5 file of the global field (float32 or float64), written by every
// rank at once through HDF5's MPI-IO driver: the dataset /p of shape
// (nz, ny, nx) (x fastest, as in the raw file), contiguous, in the run's
// type, each rank's box one hyperslab of a collective H5Dwrite, with the
// attributes the caller names. It is complete under its final name or
// absent: written under the partial name, then sealed as a raw file is
// (field_file.hpp: every rank's box read back, the CRC-32 of the whole
// file), then renamed. Built where CMake found a parallel HDF5 on the
// project's MPI (cmake/StencilHdf5.cmake); elsewhere hdf5_available() is
// false and a write throws.
#pragma once

#include "decomposition.hpp"
#include "io/checked_io.hpp"
#include "io/field_file.hpp"

#include <string>
#include <vector>

namespace stencil {

// Whether this build writes HDF5.
bool hdf5_available();

// The dataset that holds the field, as XDMF and h5py name it.
constexpr const char* kHdf5Dataset = "/p";

// Collective over d.cart: `interior` (this rank's box, x fastest) into the
// HDF5 file `path`, with `attributes` on the dataset (a number, an array of
// numbers, a text; anything else as its JSON text). Every HDF5 call is
// checked and the ranks agree after each collective step, so a failure on
// any rank is OutputFailure("writing PATH: reason") on every rank, the
// partial file removed; where some ranks hold the file open and others do
// not (so none can close it), the job ends in one line instead of hanging.
// `inject_no_space`: this rank writes nothing and says the disk is full
// (tests). The FieldFile: the whole file's length and CRC-32 (rank 0).
template <class T>
FieldFile write_hdf5_field(const Decomposition& d, const std::string& path,
                           const std::vector<T>& interior, const Json& attributes,
                           bool inject_no_space);

} // namespace stencil
