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

// The global field's bytes in the run's type.
template <class T>
std::uint64_t field_bytes(const Decomposition& d) {
    return std::uint64_t(d.global[0]) * d.global[1] * d.global[2] * sizeof(T);
}

constexpr int kReadBackValues = 1 << 22; // values per read-back piece (16 or 32 MiB)

// Why a part that MPI said it wrote did not read back intact: a full disk
// where it is full (a write cut short by one is seen only here), else
// `otherwise`.
std::string read_back_reason(const std::string& path,
                             const std::string& otherwise = "the file read back differs from "
                                                            "what was written") {
    const std::string folder = path.substr(0, path.find_last_of('/') + 1);
    if (free_bytes(folder.empty() ? "." : folder) == 0)
        return std::string(std::strerror(ENOSPC)) + " (found on reading the file back)";
    return otherwise;
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
// offsets from byte `data_offset`, every other byte taken as zero
// (crc32.hpp says why that adds up), up to the field's end.
template <class T>
RawCrc32 raw_crc_of_box(const Decomposition& d, const std::vector<T>& interior,
                        std::uint64_t data_offset) {
    RawCrc32 crc;
    const std::size_t row = std::size_t(d.local[0]);
    for (int k = 0; k < d.local[2]; ++k)
        for (int j = 0; j < d.local[1]; ++j) {
            const std::uint64_t cell =
                (std::uint64_t(d.offset[2] + k) * d.global[1] + (d.offset[1] + j)) * d.global[0] +
                d.offset[0];
            crc.feed_at(data_offset + cell * sizeof(T),
                        interior.data() + (std::size_t(k) * d.local[1] + j) * row, row * sizeof(T));
        }
    crc.extend_to(data_offset + field_bytes<T>(d));
    return crc;
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

// Collective: whether this rank's box of the open `file`, from byte
// `data_offset`, reads back as `interior`; the file is closed after, the
// first failure in `problem`. In
// pieces of at most kReadBackValues through the same view (each read_all
// goes on from the last): no second copy of the field. Every rank makes as
// many calls as the one with most.
template <class T>
bool read_back_matches(MPI_File& file, const BoxType& box, MPI_Comm comm,
                       const std::vector<T>& interior, MPI_Offset data_offset,
                       LocalProblem& problem) {
    const MPI_Datatype element = mpi_datatype<T>();
    const int count = int(interior.size());
    problem.check(MPI_File_set_view(file, data_offset, element, box.get(), "native", MPI_INFO_NULL),
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

// Rank 0: the bytes of the closed file `partial` around its field
// ([0, data_offset) and from data_offset + data_bytes to file_bytes: a
// container's own), fed at their offsets into `crc`, which holds rank 0's
// share of the field; "" or why they could not be read.
std::string feed_container_bytes(const std::string& partial, std::uint64_t data_offset,
                                 std::uint64_t data_bytes, std::uint64_t file_bytes,
                                 RawCrc32& crc) {
    if (data_offset == 0 && data_bytes == file_bytes) return {}; // a raw file: no container
    std::FILE* file = std::fopen(partial.c_str(), "rb");
    if (!file) return std::string(std::strerror(errno)) + " (reading the container's bytes back)";
    RawCrc32 around;
    std::vector<unsigned char> buffer(1 << 20);
    const std::uint64_t parts[2][2] = {{0, data_offset}, {data_offset + data_bytes, file_bytes}};
    bool read = true;
    for (const auto& [from, to] : parts) {
        read = read && std::fseek(file, long(from), SEEK_SET) == 0;
        for (std::uint64_t at = from; read && at < to;) {
            const std::size_t n = std::size_t(std::min<std::uint64_t>(buffer.size(), to - at));
            read = std::fread(buffer.data(), 1, n, file) == n;
            if (read) around.feed_at(at, buffer.data(), n), at += n;
        }
    }
    std::fclose(file);
    if (!read) return "the container's bytes could not be read back";
    around.extend_to(file_bytes);
    crc.extend_to(file_bytes);
    crc = RawCrc32::combined(crc, around);
    return {};
}

// Collective: every rank throws OutputFailure("writing PATH: ...") with the
// first rank's problem, the partial file removed, where any rank has one.
void fail_if_any(const Decomposition& d, const std::string& path, const std::string& local) {
    const std::string agreed = first_problem(d.cart.get(), local);
    if (agreed.empty()) return;
    if (d.rank == 0) std::remove(partial_path(path).c_str());
    throw OutputFailure("writing " + path + ": " + agreed);
}

} // namespace

template <class T>
std::future<RawCrc32> start_field_crc(const Decomposition& d, const std::vector<T>& interior,
                                      std::uint64_t data_offset) {
    return std::async(std::launch::async, [&d, &interior, data_offset] {
        return raw_crc_of_box(d, interior, data_offset);
    });
}

template <class T>
FieldFile seal_field_file(const Decomposition& d, const std::string& path,
                          std::uint64_t data_offset, const std::vector<T>& interior,
                          std::future<RawCrc32> field_crc) {
    const MPI_Comm comm = d.cart.get();
    const std::string partial = partial_path(path);
    const BoxType box(d, mpi_datatype<T>());
    MPI_File file = MPI_FILE_NULL;
    LocalProblem problem;
    problem.check(MPI_File_open(comm, partial.c_str(), MPI_MODE_RDONLY, MPI_INFO_NULL, &file),
                  "reopen");
    fail_if_any(d, path, problem.text);
    MPI_Offset size = 0;
    problem.check(MPI_File_get_size(file, &size), "get_size");
    const std::uint64_t data_bytes = field_bytes<T>(d), file_bytes = std::uint64_t(size);
    if (problem.text.empty() && file_bytes < data_offset + data_bytes)
        problem.set(read_back_reason(path, std::to_string(file_bytes) +
                                               " bytes, shorter than the field it holds"));
    const bool same =
        read_back_matches(file, box, comm, interior, MPI_Offset(data_offset), problem);
    if (problem.text.empty() && !same) problem.set(read_back_reason(path));
    fail_if_any(d, path, problem.text);

    RawCrc32 crc = field_crc.get();
    crc.extend_to(file_bytes);
    std::string around;
    if (d.rank == 0)
        around = feed_container_bytes(partial, data_offset, data_bytes, file_bytes, crc);
    fail_if_any(d, path, around);
    std::uint32_t raw = crc.value();
    MPI_CHECK(
        MPI_Reduce(d.rank == 0 ? MPI_IN_PLACE : &raw, &raw, 1, MPI_UINT32_T, MPI_BXOR, 0, comm));
    FieldFile result;
    result.bytes = file_bytes;
    result.crc32 = standard_crc32(raw, file_bytes);
    std::string renamed;
    if (d.rank == 0 && std::rename(partial.c_str(), path.c_str()) != 0)
        renamed = std::strerror(errno);
    fail_if_any(d, path, renamed);
    return result;
}

template <class T>
FieldFile write_field_file(const Decomposition& d, const std::string& path,
                           const std::vector<T>& interior, bool inject_no_space) {
    const MPI_Comm comm = d.cart.get();
    const std::string partial = partial_path(path);
    const BoxType box(d, mpi_datatype<T>());
    // The CRC is computed from memory on another thread while the file is
    // written, synced and read back (on one H100 node it took 0.33 s of a
    // 512 MiB level's 2.3 s when it ran after them; docs/PERFORMANCE.md).
    std::future<RawCrc32> field_crc = start_field_crc(d, interior, 0);
    MPI_File file = MPI_FILE_NULL;
    LocalProblem problem;
    problem.check(MPI_File_open(comm, partial.c_str(), MPI_MODE_CREATE | MPI_MODE_WRONLY,
                                MPI_INFO_NULL, &file),
                  "open");
    fail_if_any(d, path, problem.text);
    write_box(file, box, interior, inject_no_space, problem);
    fail_if_any(d, path, problem.text);
    return seal_field_file(d, path, 0, interior, std::move(field_crc));
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
    RawCrc32 crc = raw_crc_of_box(d, interior, 0);
    crc.extend_to(expected.bytes);
    std::uint32_t raw = crc.value();
    MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &raw, 1, MPI_UINT32_T, MPI_BXOR, comm));
    const std::uint32_t found = standard_crc32(raw, expected.bytes);
    if (found != expected.crc32)
        return "CRC-32 " + crc32_hex(found) + ", " + crc32_hex(expected.crc32) + " expected";
    return {};
}

template std::string read_field_file<float>(const Decomposition&, const std::string&,
                                            const FieldFile&, std::vector<float>&);
template std::string read_field_file<double>(const Decomposition&, const std::string&,
                                             const FieldFile&, std::vector<double>&);

template std::future<RawCrc32> start_field_crc<float>(const Decomposition&,
                                                      const std::vector<float>&, std::uint64_t);
template std::future<RawCrc32> start_field_crc<double>(const Decomposition&,
                                                       const std::vector<double>&, std::uint64_t);
template FieldFile seal_field_file<float>(const Decomposition&, const std::string&, std::uint64_t,
                                          const std::vector<float>&, std::future<RawCrc32>);
template FieldFile seal_field_file<double>(const Decomposition&, const std::string&, std::uint64_t,
                                           const std::vector<double>&, std::future<RawCrc32>);
template FieldFile write_field_file<float>(const Decomposition&, const std::string&,
                                           const std::vector<float>&, bool);
template FieldFile write_field_file<double>(const Decomposition&, const std::string&,
                                            const std::vector<double>&, bool);

} // namespace stencil
