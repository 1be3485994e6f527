// Writing output files so that they are complete or absent, and failing the
// whole run, on every rank together, when one cannot be written.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <stdexcept>
#include <string>

namespace stencil {

// An output could not be written. Thrown on every rank at once (see
// agree_on_outcome), so the run ends with one line and no rank left waiting.
struct OutputFailure : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Where a file is written before it is complete: same folder, so the final
// rename is atomic.
std::string partial_path(const std::string& path);

// Writes the bytes under partial_path(path), checks every write, flushes
// them to the device (fsync), closes, and renames to `path`. On failure the
// partial file is removed. Returns "" or "writing PATH: reason".
std::string write_file_completely(const std::string& path, const void* data, std::size_t bytes);
std::string write_file_completely(const std::string& path, const std::string& text);

// Collective over `comm` (mpi_util.hpp: first_problem): if any rank passes
// a non-empty line, every rank throws OutputFailure with the lowest failing
// rank's line.
void agree_on_outcome(MPI_Comm comm, const std::string& problem);

// "No space left on device" and the like for an MPI-IO error code.
std::string mpi_io_reason(int code);

} // namespace stencil
