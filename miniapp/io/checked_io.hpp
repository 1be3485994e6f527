// Writing output files so that they are complete or absent, and failing the
// whole run, on every rank together, when one cannot be written.
#pragma once

#include <mpi.h>
#include <nlohmann/json.hpp>

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

// Creates partial_path(path) afresh for this run: exclusively, not through
// a link, so a file of that name (the user's, or another run's write in
// progress) is never truncated or taken over. -1 with errno set, EEXIST
// where one is there.
int create_partial(const std::string& path);

// "PATH.partial exists: ..." for create_partial's EEXIST, else strerror.
std::string partial_problem(const std::string& path, int error);

// Writes the bytes under partial_path(path) (create_partial), checks every
// write, flushes them to the device (fsync), closes, and renames to `path`.
// On failure the partial file is removed. Returns "" or "writing PATH:
// reason".
std::string write_file_completely(const std::string& path, const void* data, std::size_t bytes);
std::string write_file_completely(const std::string& path, const std::string& text);
// The same for a file the user names (--report, --timeline), which is never
// written over unasked: the complete file takes `path` only where no file
// has it (checked before step 1, and again here: one may appear during the
// run); else the write is refused and nothing is left.
std::string write_new_file_completely(const std::string& path, const std::string& text);
// A file the user names: new only (write_new_file_completely), or written
// over where the user asked for that (`force`: --output-force).
std::string write_user_file(const std::string& path, const std::string& text, bool force);

// Every JSON file the mini-app writes (report, sidecars, lock) is built as
// one of these and written through json_text: keys stay in the order given.
using Json = nlohmann::ordered_json;

// `doc` indented, with a final newline. User text (a label, a path) that is
// not valid UTF-8 is written with U+FFFD in place of the bad bytes instead
// of failing the run at its end.
std::string json_text(const Json& doc, int indent = 2);

// Collective over `comm` (mpi_util.hpp: first_problem): if any rank passes
// a non-empty line, every rank throws OutputFailure with the lowest failing
// rank's line.
void agree_on_outcome(MPI_Comm comm, const std::string& problem);

// "No space left on device" and the like for an MPI-IO error code.
std::string mpi_io_reason(int code);

} // namespace stencil
