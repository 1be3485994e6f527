#include "io/field_file.hpp"

#include "io/checked_io.hpp"
#include "io/crc32.hpp"
#include "io/output_folder.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <future>

namespace stencil {
namespace {

// This rank's first failure in a sequence of calls that every rank must
// still make (collectives), so that no rank stops early and leaves the
// others waiting.
struct LocalProblem {
    std::string text;
    void check(int code, const char* what) {
        if (code != MPI_SUCCESS && text.empty()) text = mpi_io_reason(code) + " (" + what + ")";
    }
    void set(const std::string& why) {
        if (text.empty()) text = why;
    }
};

constexpr int kReadBackValues = 1 << 22; // values per read-back piece (16 or 32 MiB)

// Why a part that MPI said it wrote did not read back intact.
std::string read_back_reason(const std::string& path) {
    const std::string folder = path.substr(0, path.find_last_of('/') + 1);
    if (free_bytes(folder.empty() ? "." : folder) == 0)
        return std::string(std::strerror(ENOSPC)) + " (found on reading the file back)";
    return "the file read back differs from what was written";
}

// The file's type map for this rank: its box inside the global array, in C
// order (z slowest), which is x fastest on disk.
class BoxType {
public:
    BoxType(const Decomposition& d, MPI_Datatype element) {
        int sizes[3] = {d.global[2], d.global[1], d.global[0]},
            sub[3] = {d.local[2], d.local[1], d.local[0]},
            start[3] = {d.offset[2], d.offset[1], d.offset[0]};
        MPI_CHECK(MPI_Type_create_subarray(3, sizes, sub, start, MPI_ORDER_C, element, &type_));
        MPI_CHECK(MPI_Type_commit(&type_));
    }
    ~BoxType() { MPI_Type_free(&type_); }
    BoxType(const BoxType&) = delete;
    BoxType& operator=(const BoxType&) = delete;
    MPI_Datatype get() const { return type_; }

private:
    MPI_Datatype type_ = MPI_DATATYPE_NULL;
};

// This rank's share of the file's CRC register: its rows at their file
// offsets, every other byte taken as zero (crc32.hpp says why that adds up).
template <class T>
std::uint32_t raw_crc_of_box(const Decomposition& d, const std::vector<T>& interior,
                             std::uint64_t file_bytes) {
    RawCrc32 crc;
    const std::size_t row = std::size_t(d.local[0]);
    for (int k = 0; k < d.local[2]; ++k)
        for (int j = 0; j < d.local[1]; ++j) {
            const std::uint64_t cell =
                (std::uint64_t(d.offset[2] + k) * d.global[1] + (d.offset[1] + j)) * d.global[0] +
                d.offset[0];
            crc.feed_at(cell * sizeof(T), interior.data() + (std::size_t(k) * d.local[1] + j) * row,
                        row * sizeof(T));
        }
    crc.extend_to(file_bytes);
    return crc.value();
}

// Collective: this rank's box of the file, `interior`, written into the
// open `file` through `box` (none of it with inject_no_space, which then
// says the disk is full), synced, and the file closed. The first failure
// goes into `problem`.
template <class T>
void write_box(MPI_File& file, const BoxType& box, const std::vector<T>& interior,
               bool inject_no_space, LocalProblem& problem) {
    const MPI_Datatype element = mpi_datatype<T>();
    const int count = int(interior.size());
    problem.check(MPI_File_set_size(file, 0), "set_size"); // a leftover partial file
    problem.check(MPI_File_set_view(file, 0, element, box.get(), "native", MPI_INFO_NULL),
                  "set_view");
    MPI_Status status;
    problem.check(
        MPI_File_write_all(file, interior.data(), inject_no_space ? 0 : count, element, &status),
        "write_all");
    int written = 0;
    MPI_Get_count(&status, element, &written);
    if (inject_no_space) problem.set(std::string(std::strerror(ENOSPC)) + " (injected)");
    if (written != count)
        problem.set("wrote " + std::to_string(written) + " of " + std::to_string(count) +
                    " values");
    problem.check(MPI_File_sync(file), "sync");
    problem.check(MPI_File_close(&file), "close");
}

// Collective: whether this rank's box of the open `file` reads back as
// `interior`; the file is closed after, the first failure in `problem`. In
// pieces of at most kReadBackValues through the same view (each read_all
// goes on from the last): no second copy of the field. Every rank makes as
// many calls as the one with most.
template <class T>
bool read_back_matches(MPI_File& file, const BoxType& box, MPI_Comm comm,
                       const std::vector<T>& interior, LocalProblem& problem) {
    const MPI_Datatype element = mpi_datatype<T>();
    const int count = int(interior.size());
    problem.check(MPI_File_set_view(file, 0, element, box.get(), "native", MPI_INFO_NULL),
                  "set_view");
    const int pieces_here = (count + kReadBackValues - 1) / kReadBackValues;
    int pieces = pieces_here;
    MPI_CHECK(MPI_Allreduce(&pieces_here, &pieces, 1, MPI_INT, MPI_MAX, comm));
    std::vector<T> back(std::size_t(std::min(count, kReadBackValues)));
    bool same = true;
    MPI_Status status;
    for (int piece = 0, done = 0; piece < pieces; ++piece) {
        const int n = std::min(kReadBackValues, count - done);
        problem.check(MPI_File_read_all(file, back.data(), n, element, &status), "read_all");
        int read = 0;
        MPI_Get_count(&status, element, &read);
        same = same && read == n &&
               std::memcmp(back.data(), interior.data() + done, std::size_t(n) * sizeof(T)) == 0;
        done += n;
    }
    problem.check(MPI_File_close(&file), "close");
    return same;
}

} // namespace

template <class T>
FieldFile write_field_file(const Decomposition& d, const std::string& path,
                           const std::vector<T>& interior, bool inject_no_space) {
    const MPI_Comm comm = d.cart.get();
    const std::string partial = partial_path(path);
    const BoxType box(d, mpi_datatype<T>());
    auto fail_if_any = [&](const std::string& local) {
        const std::string agreed = first_problem(comm, local);
        if (agreed.empty()) return;
        if (d.rank == 0) std::remove(partial.c_str());
        throw OutputFailure("writing " + path + ": " + agreed);
    };

    // The CRC is computed from memory on another thread while the file is
    // written, synced and read back (on one H100 node it took 0.33 s of a
    // 512 MiB level's 2.3 s when it ran after them; docs/PERFORMANCE.md).
    const std::uint64_t file_bytes =
        std::uint64_t(d.global[0]) * d.global[1] * d.global[2] * sizeof(T);
    std::future<std::uint32_t> raw_crc =
        std::async(std::launch::async,
                   [&d, &interior, file_bytes] { return raw_crc_of_box(d, interior, file_bytes); });

    MPI_File file = MPI_FILE_NULL;
    LocalProblem problem;
    problem.check(MPI_File_open(comm, partial.c_str(), MPI_MODE_CREATE | MPI_MODE_WRONLY,
                                MPI_INFO_NULL, &file),
                  "open");
    fail_if_any(problem.text);
    write_box(file, box, interior, inject_no_space, problem);
    fail_if_any(problem.text);

    problem.check(MPI_File_open(comm, partial.c_str(), MPI_MODE_RDONLY, MPI_INFO_NULL, &file),
                  "reopen");
    fail_if_any(problem.text);
    const bool same = read_back_matches(file, box, comm, interior, problem);
    if (problem.text.empty() && !same) problem.set(read_back_reason(path));
    fail_if_any(problem.text);

    FieldFile result;
    result.bytes = file_bytes;
    std::uint32_t raw = raw_crc.get();
    MPI_CHECK(
        MPI_Reduce(d.rank == 0 ? MPI_IN_PLACE : &raw, &raw, 1, MPI_UINT32_T, MPI_BXOR, 0, comm));
    result.crc32 = standard_crc32(raw, result.bytes);
    std::string renamed;
    if (d.rank == 0 && std::rename(partial.c_str(), path.c_str()) != 0)
        renamed = std::strerror(errno);
    fail_if_any(renamed);
    return result;
}

template <class T>
std::string read_field_file(const Decomposition& d, const std::string& path,
                            const FieldFile& expected, std::vector<T>& interior) {
    const MPI_Datatype element = mpi_datatype<T>();
    const MPI_Comm comm = d.cart.get();
    const BoxType box(d, element);
    interior.assign(std::size_t(d.local[0]) * d.local[1] * d.local[2], T(0));
    MPI_File file = MPI_FILE_NULL;
    LocalProblem problem;
    problem.check(MPI_File_open(comm, path.c_str(), MPI_MODE_RDONLY, MPI_INFO_NULL, &file), "open");
    if (const std::string why = first_problem(comm, problem.text); !why.empty()) return why;
    MPI_Offset size = 0;
    problem.check(MPI_File_get_size(file, &size), "get_size");
    const bool length_ok = std::uint64_t(size) == expected.bytes;
    if (problem.text.empty() && !length_ok)
        problem.set(std::to_string(size) + " bytes, " + std::to_string(expected.bytes) +
                    " expected");
    if (length_ok) { // a short file would end the collective read early on some ranks only
        problem.check(MPI_File_set_view(file, 0, element, box.get(), "native", MPI_INFO_NULL),
                      "set_view");
        MPI_Status status;
        problem.check(
            MPI_File_read_all(file, interior.data(), int(interior.size()), element, &status),
            "read_all");
    }
    problem.check(MPI_File_close(&file), "close");
    if (const std::string why = first_problem(comm, problem.text); !why.empty()) return why;
    std::uint32_t raw = raw_crc_of_box(d, interior, expected.bytes);
    MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &raw, 1, MPI_UINT32_T, MPI_BXOR, comm));
    const std::uint32_t crc = standard_crc32(raw, expected.bytes);
    if (crc != expected.crc32)
        return "CRC-32 " + crc32_hex(crc) + ", " + crc32_hex(expected.crc32) + " expected";
    return {};
}

template std::string read_field_file<float>(const Decomposition&, const std::string&,
                                            const FieldFile&, std::vector<float>&);
template std::string read_field_file<double>(const Decomposition&, const std::string&,
                                             const FieldFile&, std::vector<double>&);

template FieldFile write_field_file<float>(const Decomposition&, const std::string&,
                                           const std::vector<float>&, bool);
template FieldFile write_field_file<double>(const Decomposition&, const std::string&,
                                            const std::vector<double>&, bool);

} // namespace stencil
