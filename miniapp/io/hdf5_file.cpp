#include "io/hdf5_file.hpp"

#include "fatal.hpp"
#include "mpi_util.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>

#if STENCIL_HAVE_HDF5
#include <hdf5.h>

#include <algorithm>
#include <climits>
#include <utility>

namespace stencil {
namespace {

constexpr hid_t kNoId = -1;

// An HDF5 identifier, owned: closed once, by the call made for its kind
// (H5Fclose, H5Dclose, ...). Move-only.
class Hid {
public:
    Hid() = default;
    Hid(hid_t id, herr_t (*close)(hid_t)) : id_(id < 0 ? kNoId : id), close_(close) {}
    ~Hid() { close(); }
    Hid(Hid&& o) noexcept : id_(std::exchange(o.id_, kNoId)), close_(o.close_) {}
    Hid& operator=(Hid&& o) noexcept {
        if (this != &o) close(), id_ = std::exchange(o.id_, kNoId), close_ = o.close_;
        return *this;
    }
    Hid(const Hid&) = delete;
    Hid& operator=(const Hid&) = delete;
    hid_t get() const { return id_; }
    bool valid() const { return id_ != kNoId; }
    // Closes it now; false where the library says that failed.
    bool close() { return !valid() || close_(std::exchange(id_, kNoId)) >= 0; }

private:
    hid_t id_ = kNoId;
    herr_t (*close_)(hid_t) = nullptr;
};

// The innermost error on HDF5's stack (where it was found: "file write
// failed ... No space left on device"), then the stack cleared.
std::string library_reason() {
    std::string reason;
    auto first = [](unsigned n, const H5E_error2_t* error, void* out) -> herr_t {
        if (n == 0 && error->desc) *static_cast<std::string*>(out) = error->desc;
        return 0;
    };
    H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, first, &reason);
    H5Eclear2(H5E_DEFAULT);
    return reason.empty() ? "the HDF5 library gave no reason" : reason;
}

// This rank's first failure among the calls of one write, with the
// library's reason and the call's name; the ranks agree on it before the
// next collective call (Hdf5Write::agree).
struct Hdf5Problem {
    std::string text;
    Hid made(hid_t id, herr_t (*close)(hid_t), const char* what) {
        if (id < 0) fail(what);
        return Hid(id, close);
    }
    void check(herr_t status, const char* what) {
        if (status < 0) fail(what);
    }
    void fail(const char* what) {
        if (text.empty()) text = library_reason() + " (" + what + ")";
    }
    void set(const std::string& why) {
        if (text.empty()) text = why;
    }
};

template <class T>
hid_t native_type() {
    return sizeof(T) == 8 ? H5T_NATIVE_DOUBLE : H5T_NATIVE_FLOAT;
}

// `value` as the attribute `name` of `dataset`: numbers as double or
// 64-bit integers (scalar or 1-D), text as UTF-8, anything else as its
// JSON text. Collective: every rank passes the same.
void write_attribute(hid_t dataset, const std::string& name, const Json& value,
                     Hdf5Problem& problem) {
    const bool array =
        value.is_array() && !value.empty() &&
        std::all_of(value.begin(), value.end(), [](const Json& v) { return v.is_number(); });
    const Json first = array ? value.front() : value;
    bool integers = first.is_number_integer();
    if (array)
        for (const Json& v : value)
            integers = integers && v.is_number_integer();
    const hsize_t count = array ? value.size() : 1;
    Hid space = problem.made(array ? H5Screate_simple(1, &count, nullptr) : H5Screate(H5S_SCALAR),
                             H5Sclose, "H5Screate");
    if (array || value.is_number()) {
        std::vector<double> reals;
        std::vector<long long> whole;
        for (const Json& v : array ? value : Json::array({value}))
            integers ? whole.push_back(v.get<long long>()) : reals.push_back(v.get<double>());
        const hid_t type = integers ? H5T_NATIVE_LLONG : H5T_NATIVE_DOUBLE;
        Hid attribute = problem.made(
            H5Acreate2(dataset, name.c_str(), type, space.get(), H5P_DEFAULT, H5P_DEFAULT),
            H5Aclose, "H5Acreate2");
        problem.check(H5Awrite(attribute.get(), type,
                               integers ? static_cast<const void*>(whole.data()) : reals.data()),
                      "H5Awrite");
        problem.check(attribute.close() ? 0 : -1, "H5Aclose");
        return;
    }
    const std::string text = value.is_string() ? value.get<std::string>() : value.dump();
    Hid type = problem.made(H5Tcopy(H5T_C_S1), H5Tclose, "H5Tcopy");
    problem.check(H5Tset_size(type.get(), H5T_VARIABLE), "H5Tset_size");
    problem.check(H5Tset_cset(type.get(), H5T_CSET_UTF8), "H5Tset_cset");
    Hid attribute = problem.made(
        H5Acreate2(dataset, name.c_str(), type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT),
        H5Aclose, "H5Acreate2");
    const char* pointer = text.c_str();
    problem.check(H5Awrite(attribute.get(), type.get(), &pointer), "H5Awrite");
    problem.check(attribute.close() ? 0 : -1, "H5Aclose");
}

// Rank 0, the file closed: opened again on its own (no MPI), its dataset's
// shape, type and place as written; "" or what differs.
template <class T>
std::string reopened_problem(const Decomposition& d, const std::string& partial, haddr_t offset) {
    Hdf5Problem problem;
    Hid file = problem.made(H5Fopen(partial.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose,
                            "H5Fopen, read back");
    Hid dataset = problem.made(file.valid() ? H5Dopen2(file.get(), kHdf5Dataset, H5P_DEFAULT) : -1,
                               H5Dclose, "H5Dopen2, read back");
    if (!problem.text.empty()) return problem.text;
    Hid space = problem.made(H5Dget_space(dataset.get()), H5Sclose, "H5Dget_space");
    Hid type = problem.made(H5Dget_type(dataset.get()), H5Tclose, "H5Dget_type");
    hsize_t dims[3] = {0, 0, 0};
    const int rank = space.valid() ? H5Sget_simple_extent_ndims(space.get()) : -1;
    if (rank == 3) H5Sget_simple_extent_dims(space.get(), dims, nullptr);
    if (rank != 3 || dims[0] != hsize_t(d.global[2]) || dims[1] != hsize_t(d.global[1]) ||
        dims[2] != hsize_t(d.global[0]))
        problem.set("the file read back holds another shape than the field's");
    if (type.valid() && H5Tequal(type.get(), native_type<T>()) <= 0)
        problem.set("the file read back holds another element type than the field's");
    if (H5Dget_offset(dataset.get()) != offset)
        problem.set("the file read back holds the field elsewhere than it was written");
    return problem.text;
}

// One write, step by step. The ranks agree after each step and before
// every collective call (agree), so that a rank whose local call failed
// never leaves the others waiting in a collective one.
template <class T>
class Hdf5Write {
public:
    Hdf5Write(const Decomposition& d, const std::string& path)
        : d_(d), path_(path), partial_(partial_path(path)) {}

    // The partial file created, collectively, through the MPI-IO driver.
    void create() {
        Hid fapl = problem_.made(H5Pcreate(H5P_FILE_ACCESS), H5Pclose, "H5Pcreate");
        problem_.check(H5Pset_fapl_mpio(fapl.get(), d_.cart.get(), MPI_INFO_NULL),
                       "H5Pset_fapl_mpio");
        // No times in the object headers: the same field makes the same
        // bytes, whatever the day or the rank count (a restart's snapshots
        // are the uninterrupted run's).
        Hid fcpl = problem_.made(H5Pcreate(H5P_FILE_CREATE), H5Pclose, "H5Pcreate");
        problem_.check(H5Pset_obj_track_times(fcpl.get(), false), "H5Pset_obj_track_times");
        agree();
        file_ = problem_.made(H5Fcreate(partial_.c_str(), H5F_ACC_TRUNC, fcpl.get(), fapl.get()),
                              H5Fclose, "H5Fcreate");
        agree();
    }

    // The dataset, contiguous, allocated now and never filled (the field
    // is written once, whole), so its place in the file is known before
    // the field is written; then its attributes. Returns the place.
    std::uint64_t create_dataset(const Json& attributes) {
        const hsize_t dims[3] = {hsize_t(d_.global[2]), hsize_t(d_.global[1]),
                                 hsize_t(d_.global[0])};
        space_ = problem_.made(H5Screate_simple(3, dims, nullptr), H5Sclose, "H5Screate_simple");
        Hid dcpl = problem_.made(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, "H5Pcreate");
        problem_.check(H5Pset_obj_track_times(dcpl.get(), false), "H5Pset_obj_track_times");
        problem_.check(H5Pset_alloc_time(dcpl.get(), H5D_ALLOC_TIME_EARLY), "H5Pset_alloc_time");
        problem_.check(H5Pset_fill_time(dcpl.get(), H5D_FILL_TIME_NEVER), "H5Pset_fill_time");
        agree();
        dataset_ = problem_.made(H5Dcreate2(file_.get(), kHdf5Dataset, native_type<T>(),
                                            space_.get(), H5P_DEFAULT, dcpl.get(), H5P_DEFAULT),
                                 H5Dclose, "H5Dcreate2");
        offset_ = dataset_.valid() ? H5Dget_offset(dataset_.get()) : HADDR_UNDEF;
        if (dataset_.valid() && offset_ == HADDR_UNDEF)
            problem_.set("the dataset has no place in the file");
        agree();
        for (const auto& [name, value] : attributes.items())
            write_attribute(dataset_.get(), name, value, problem_);
        agree();
        return std::uint64_t(offset_);
    }

    // Every rank's box as one hyperslab of one collective H5Dwrite; then
    // the dataset and the file closed (the metadata written).
    void write(const std::vector<T>& interior, bool inject_no_space) {
        const hsize_t start[3] = {hsize_t(d_.offset[2]), hsize_t(d_.offset[1]),
                                  hsize_t(d_.offset[0])},
                      count[3] = {hsize_t(d_.local[2]), hsize_t(d_.local[1]), hsize_t(d_.local[0])};
        Hid memory = problem_.made(H5Screate_simple(3, count, nullptr), H5Sclose, "H5Screate");
        problem_.check(
            H5Sselect_hyperslab(space_.get(), H5S_SELECT_SET, start, nullptr, count, nullptr),
            "H5Sselect_hyperslab");
        if (inject_no_space) { // in the collective write still, with nothing to write
            problem_.check(H5Sselect_none(space_.get()), "H5Sselect_none");
            problem_.check(H5Sselect_none(memory.get()), "H5Sselect_none");
        }
        Hid dxpl = problem_.made(H5Pcreate(H5P_DATASET_XFER), H5Pclose, "H5Pcreate");
        problem_.check(H5Pset_dxpl_mpio(dxpl.get(), H5FD_MPIO_COLLECTIVE), "H5Pset_dxpl_mpio");
        agree();
        problem_.check(H5Dwrite(dataset_.get(), native_type<T>(), memory.get(), space_.get(),
                                dxpl.get(), interior.data()),
                       "H5Dwrite");
        if (inject_no_space) problem_.set(std::string(std::strerror(ENOSPC)) + " (injected)");
        agree();
        space_.close();
        problem_.check(dataset_.close() ? 0 : -1, "H5Dclose");
        // The metadata written and the file synced (the MPI-IO driver's
        // flush is MPI_File_sync; its close does not sync), as the raw
        // path syncs: a full disk or a lost server may show only here.
        problem_.check(H5Fflush(file_.get(), H5F_SCOPE_GLOBAL), "H5Fflush");
        problem_.check(file_.close() ? 0 : -1, "H5Fclose");
        agree();
        if (d_.rank == 0) problem_.set(reopened_problem<T>(d_, partial_, offset_));
        agree();
    }

private:
    const Decomposition& d_;
    std::string path_, partial_;
    Hdf5Problem problem_;
    Hid file_, space_, dataset_; // the dataset and its space closed before the file
    haddr_t offset_ = HADDR_UNDEF;

    // Collective. Where any rank failed, every rank throws OutputFailure
    // (its handles closed together on the way out), the partial file
    // removed. Where some ranks hold the file or the dataset and others
    // not, no close can be collective: rank 0 ends the job in one line
    // (fatal: MPI_Abort) while the others wait for it.
    void agree() {
        const MPI_Comm comm = d_.cart.get();
        const int held = (file_.valid() ? 1 : 0) + (dataset_.valid() ? 2 : 0);
        int first[3] = {problem_.text.empty() ? INT_MAX : d_.rank, held, -held};
        MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, first, 3, MPI_INT, MPI_MIN, comm));
        if (first[0] == INT_MAX) return;
        const std::string agreed = broadcast_text(comm, problem_.text, first[0]);
        if (d_.rank == 0) std::remove(partial_.c_str());
        if (first[1] != -first[2]) {
            if (d_.rank == 0)
                fatal(
                    "writing " + path_ + ": " + agreed +
                    "; the ranks disagree on what of the HDF5 file is open, so none can close it");
            MPI_Barrier(comm); // rank 0's abort ends this rank too
        }
        throw OutputFailure("writing " + path_ + ": " + agreed);
    }
};

} // namespace

bool hdf5_available() {
    return true;
}

template <class T>
FieldFile write_hdf5_field(const Decomposition& d, const std::string& path,
                           const std::vector<T>& interior, const Json& attributes,
                           bool inject_no_space) {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); // one line, not HDF5's stack on stderr
    Hdf5Write<T> write(d, path);
    write.create();
    const std::uint64_t offset = write.create_dataset(attributes);
    // The field's share of the CRC-32 from memory while it is written.
    std::future<RawCrc32> field_crc = start_field_crc(d, interior, offset);
    write.write(interior, inject_no_space);
    return seal_field_file(d, path, offset, interior, std::move(field_crc));
}

} // namespace stencil

#else // no HDF5 in this build: --output-format hdf5 is refused before step 1

namespace stencil {

bool hdf5_available() {
    return false;
}

template <class T>
FieldFile write_hdf5_field(const Decomposition&, const std::string& path, const std::vector<T>&,
                           const Json&, bool) {
    throw OutputFailure("writing " + path + ": this build has no HDF5");
}

} // namespace stencil

#endif

namespace stencil {

template FieldFile write_hdf5_field<float>(const Decomposition&, const std::string&,
                                           const std::vector<float>&, const Json&, bool);
template FieldFile write_hdf5_field<double>(const Decomposition&, const std::string&,
                                            const std::vector<double>&, const Json&, bool);

} // namespace stencil
