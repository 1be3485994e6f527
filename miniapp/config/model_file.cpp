#include "config/model_file.hpp"

#include "io/checked_io.hpp"
#include "io/crc32.hpp"
#include "mpi_util.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>

namespace stencil {
namespace {

constexpr std::uint64_t kBlock = std::uint64_t(1) << 24; // values per read while checking

// The speeds a model may hold, in m/s: the acoustic speeds of matter (air
// 343, water 1500, rock up to about 8000, diamond 18000) with a wide margin.
// A value outside is a wrong file, dtype, byte order or unit, not a medium:
// a 1e-30 m/s cell set f0 to 6.7e-33 Hz, and a 1e30 m/s one a time step
// too small to hold, blamed on --spacing.
constexpr double kSlowest = 1, kFastest = 1e5;

bool physical_speed(double v) {
    return std::isfinite(v) && v >= kSlowest && v <= kFastest;
}

// What the sidecar says of the raw file (rank 0 reads it).
struct Sidecar {
    int fp64 = 0;
    std::uint64_t bytes = 0;
    std::uint32_t crc32 = 0;
};

std::string dims_text(const std::array<int, 3>& n) {
    return std::to_string(n[0]) + "x" + std::to_string(n[1]) + "x" + std::to_string(n[2]);
}

std::string read_sidecar(const Options& c, const std::array<int, 3>& grid, Sidecar& out) {
    const std::string path = sidecar_path(c.model_path);
    std::ifstream in(path);
    if (!in)
        return "no sidecar " + path +
               " (the JSON that describes the raw file: tools/make-model.py writes one)";
    const Json doc = Json::parse(in, nullptr, false);
    if (!doc.is_object()) return "the sidecar " + path + " is not a JSON object";
    const std::string dtype = doc.value("dtype", std::string());
    if (dtype != "float32" && dtype != "float64")
        return "the sidecar's dtype is \"" + dtype + "\" (float32 or float64)";
    out.fp64 = dtype == "float64";
    const Json dims = doc.value("dims", Json());
    if (!dims.is_array() || dims.size() != 3 || !dims[0].is_number_integer() ||
        !dims[1].is_number_integer() || !dims[2].is_number_integer())
        return "the sidecar has no dims [nx, ny, nz]";
    const std::array<int, 3> model{dims[0].get<int>(), dims[1].get<int>(), dims[2].get<int>()};
    if (model != grid)
        return "the model is " + dims_text(model) + " cells, the grid " + dims_text(grid);
    if (const Json spacing = doc.value("spacing_m", Json()); !spacing.is_null()) {
        for (const Json& h : spacing.is_array() ? spacing : Json::array({spacing}))
            if (!h.is_number() || std::fabs(h.get<double>() - c.spacing) > 1e-9 * c.spacing) {
                char line[160];
                std::snprintf(line, sizeof line,
                              "the model's spacing is %s m, this run's --spacing %g m",
                              spacing.dump().c_str(), c.spacing);
                return line;
            }
    }
    const std::uint64_t cells = std::uint64_t(grid[0]) * grid[1] * grid[2];
    const std::uint64_t bytes = cells * (out.fp64 ? 8 : 4);
    if (doc.value("bytes", std::uint64_t(0)) != bytes)
        return "the sidecar says " + doc.value("bytes", Json()).dump() + " bytes; " +
               dims_text(model) + " " + dtype + " values take " + std::to_string(bytes);
    out.bytes = bytes;
    if (!parse_crc32_hex(doc.value("crc32", std::string()), out.crc32))
        return "the sidecar has no crc32 (eight hex digits)";
    return {};
}

// One rank's stretch of the file, read to check it.
struct Scan {
    RawCrc32 crc;
    double lo = std::numeric_limits<double>::infinity(), hi = 0;
    long long first_bad = LLONG_MAX; // the first value that is not a physical speed
    double bad_value = 0;
    std::string problem;
};

template <class T>
void scan(MPI_File file, std::uint64_t begin, std::uint64_t end, Scan& s) {
    std::vector<T> block;
    for (std::uint64_t at = begin; at < end && s.problem.empty(); at += kBlock) {
        const std::uint64_t n = std::min(kBlock, end - at);
        block.resize(n);
        MPI_Status status;
        const int code = MPI_File_read_at(file, MPI_Offset(at * sizeof(T)), block.data(), int(n),
                                          mpi_datatype<T>(), &status);
        if (code != MPI_SUCCESS) s.problem = mpi_io_reason(code) + " (read_at)";
        s.crc.feed_at(at * sizeof(T), block.data(), n * sizeof(T));
        for (std::uint64_t i = 0; i < n; ++i) {
            const double v = double(block[i]);
            if (physical_speed(v)) {
                s.lo = std::min(s.lo, v), s.hi = std::max(s.hi, v);
            } else if (s.first_bad == LLONG_MAX) {
                s.first_bad = (long long)(at + i), s.bad_value = v;
            }
        }
    }
}

// The first of `values` values that rank `rank` checks: the ranks of
// MPI_COMM_WORLD split the file into contiguous stretches.
std::uint64_t stretch_start(std::uint64_t values, int rank) {
    return values * std::uint64_t(rank) / std::uint64_t(world_size());
}

// Collective: each rank scans its stretch of the file into `s` (big
// sequential reads); "" or why the file cannot be read or is not as long
// as the sidecar says, the same on every rank.
std::string scan_stretches(const std::string& path, const Sidecar& side, Scan& s) {
    const MPI_Comm comm = MPI_COMM_WORLD;
    std::string problem;
    MPI_File file = MPI_FILE_NULL;
    int code = MPI_File_open(comm, path.c_str(), MPI_MODE_RDONLY, MPI_INFO_NULL, &file);
    if (code != MPI_SUCCESS) problem = "cannot read it (" + mpi_io_reason(code) + ")";
    if (std::string why = first_problem(comm, problem); !why.empty()) return why;
    MPI_Offset size = 0;
    MPI_CHECK(MPI_File_get_size(file, &size));
    if (std::uint64_t(size) != side.bytes) {
        MPI_File_close(&file);
        return std::to_string(size) + " bytes, the sidecar says " + std::to_string(side.bytes);
    }
    const std::uint64_t values = side.bytes / (side.fp64 ? 8 : 4);
    const int rank = world_rank();
    if (side.fp64)
        scan<double>(file, stretch_start(values, rank), stretch_start(values, rank + 1), s);
    else
        scan<float>(file, stretch_start(values, rank), stretch_start(values, rank + 1), s);
    MPI_File_close(&file);
    return first_problem(comm, s.problem);
}

// Collective: the first of the file's `values` values that is not a
// physical speed, with its cell of `grid`, as one line ("" if there is none).
std::string first_bad_value(const Scan& s, std::uint64_t values, const std::array<int, 3>& grid) {
    long long bad = s.first_bad;
    MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_LONG_LONG, MPI_MIN, MPI_COMM_WORLD));
    if (bad == LLONG_MAX) return {};
    int owner = 0;
    while (owner + 1 < world_size() && stretch_start(values, owner + 1) <= std::uint64_t(bad))
        ++owner;
    double value = s.bad_value;
    MPI_CHECK(MPI_Bcast(&value, 1, MPI_DOUBLE, owner, MPI_COMM_WORLD));
    const long long nx = grid[0], ny = grid[1];
    char line[200];
    std::snprintf(line, sizeof line,
                  "the speed at cell %lld,%lld,%lld is %g m/s; every value must be a speed of "
                  "sound in m/s, from %g to %g",
                  bad % nx, bad / nx % ny, bad / (nx * ny), value, kSlowest, kFastest);
    return line;
}

// A stretch of one axis of the grown box: `count` cells from global index
// `global`, placed at `local` in the grown box.
struct Run {
    int global, count, local;
};

// The file cells that one axis of the grown box [offset - halo, offset +
// size + halo) is read from: the cells inside the grid (a halo past a
// physical boundary is filled afterwards), or along a periodic axis the
// wrapped cells, in as many runs as the wrapping takes.
std::vector<Run> runs_along(int offset, int size, int halo, int n, bool periodic) {
    const int lo = offset - halo, hi = offset + size + halo;
    if (!periodic) {
        const int a = std::max(lo, 0), b = std::min(hi, n);
        return {{a, b - a, a - lo}};
    }
    std::vector<Run> runs;
    for (int g = lo; g < hi;) {
        const int wrapped = (g % n + n) % n, count = std::min(hi - g, n - wrapped);
        runs.push_back({wrapped, count, g - lo});
        g += count;
    }
    return runs;
}

// Collective: one box of the file (`count` cells from `start`, x fastest),
// or nothing where `count` is empty, into `out`.
template <class T>
void read_box(MPI_File file, const std::array<int, 3>& grid, const std::array<int, 3>& start,
              const std::array<int, 3>& count, std::vector<double>& out) {
    const MPI_Datatype element = mpi_datatype<T>();
    std::vector<T> values(std::size_t(count[0]) * count[1] * count[2]);
    MPI_Datatype view = element;
    if (!values.empty()) {
        int sizes[3] = {grid[2], grid[1], grid[0]}, sub[3] = {count[2], count[1], count[0]},
            first[3] = {start[2], start[1], start[0]};
        MPI_CHECK(MPI_Type_create_subarray(3, sizes, sub, first, MPI_ORDER_C, element, &view));
        MPI_CHECK(MPI_Type_commit(&view));
    }
    MPI_CHECK(MPI_File_set_view(file, 0, element, view, "native", MPI_INFO_NULL));
    MPI_Status status;
    MPI_CHECK(MPI_File_read_all(file, values.data(), int(values.size()), element, &status));
    if (view != element) MPI_CHECK(MPI_Type_free(&view));
    out.assign(values.begin(), values.end());
}

} // namespace

std::vector<double> read_model_box(const Options& c, const RunPlan& plan, const Decomposition& d,
                                   int halo) {
    const std::array<int, 3>& grid = plan.grid;
    std::array<int, 3> grown;
    std::array<std::vector<Run>, 3> runs;
    for (int a = 0; a < 3; ++a) {
        grown[a] = d.local[a] + 2 * halo;
        runs[a] = runs_along(d.offset[a], d.local[a], halo, grid[a], d.periodic[a]);
    }
    std::vector<double> box(std::size_t(grown[0]) * grown[1] * grown[2], 0.0);
    const auto at = [&](int i, int j, int k) {
        return (std::size_t(k) * grown[1] + j) * grown[0] + i;
    };
    // Every rank reads as many pieces as the rank with the most (collective reads).
    int pieces = int(runs[0].size() * runs[1].size() * runs[2].size()), most = pieces;
    MPI_CHECK(MPI_Allreduce(&pieces, &most, 1, MPI_INT, MPI_MAX, d.cart.get()));
    MPI_File file = MPI_FILE_NULL;
    MPI_CHECK(
        MPI_File_open(d.cart.get(), c.model_path.c_str(), MPI_MODE_RDONLY, MPI_INFO_NULL, &file));
    std::vector<double> piece;
    for (int p = 0; p < most; ++p) {
        std::array<Run, 3> r{Run{0, 0, 0}, Run{0, 0, 0}, Run{0, 0, 0}};
        if (p < pieces) {
            const int ix = p % int(runs[0].size()),
                      iy = p / int(runs[0].size()) % int(runs[1].size()),
                      iz = p / int(runs[0].size() * runs[1].size());
            r = {runs[0][ix], runs[1][iy], runs[2][iz]};
        }
        const std::array<int, 3> start{r[0].global, r[1].global, r[2].global},
            count{r[0].count, r[1].count, r[2].count};
        if (plan.model_fp64)
            read_box<double>(file, grid, start, count, piece);
        else
            read_box<float>(file, grid, start, count, piece);
        std::size_t n = 0;
        for (int k = 0; k < count[2]; ++k)
            for (int j = 0; j < count[1]; ++j)
                for (int i = 0; i < count[0]; ++i)
                    box[at(r[0].local + i, r[1].local + j, r[2].local + k)] = piece[n++];
    }
    MPI_CHECK(MPI_File_close(&file));
    // Past a physical boundary: the nearest edge cell's speed, axis by axis
    // (x rows first, then whole rows along y, then planes along z).
    for (int a = 0; a < 3; ++a) {
        if (d.periodic[a]) continue;
        const int first = halo - d.offset[a];              // grown index of global 0
        const int last = grid[a] - 1 - d.offset[a] + halo; // of global n - 1
        for (int k = 0; k < grown[2]; ++k)
            for (int j = 0; j < grown[1]; ++j)
                for (int i = 0; i < grown[0]; ++i) {
                    int l[3] = {i, j, k};
                    const int g = l[a];
                    if (g >= first && g <= last) continue;
                    l[a] = g < first ? first : last;
                    box[at(i, j, k)] = box[at(l[0], l[1], l[2])];
                }
    }
    return box;
}

std::string sidecar_path(const std::string& raw_path) {
    const std::size_t n = raw_path.size();
    if (n > 4 && raw_path.compare(n - 4, 4, ".raw") == 0)
        return raw_path.substr(0, n - 4) + ".json";
    return raw_path + ".json";
}

std::string check_model_file(const Options& c, RunPlan& plan, double& c_min, double& c_max) {
    const MPI_Comm comm = MPI_COMM_WORLD;
    const std::string name = "--model file:" + c.model_path + ": ";
    Sidecar side;
    std::string problem;
    std::error_code ignored;
    if (world_rank() == 0 && std::filesystem::is_directory(c.model_path, ignored))
        problem = "a directory; name the raw file of speeds in it";
    else if (world_rank() == 0)
        problem = read_sidecar(c, plan.grid, side);
    if (std::string why = first_problem(comm, problem); !why.empty()) return name + why;
    MPI_CHECK(MPI_Bcast(&side.fp64, 1, MPI_INT, 0, comm));
    MPI_CHECK(MPI_Bcast(&side.bytes, 1, MPI_UINT64_T, 0, comm));
    MPI_CHECK(MPI_Bcast(&side.crc32, 1, MPI_UINT32_T, 0, comm));

    Scan s;
    if (std::string why = scan_stretches(c.model_path, side, s); !why.empty()) return name + why;
    s.crc.extend_to(side.bytes);
    std::uint32_t raw = s.crc.value();
    MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &raw, 1, MPI_UINT32_T, MPI_BXOR, comm));
    if (const std::uint32_t crc = standard_crc32(raw, side.bytes); crc != side.crc32)
        return name + "CRC-32 " + crc32_hex(crc) + ", the sidecar says " + crc32_hex(side.crc32) +
               " (changed after its sidecar was written?)";
    if (std::string why = first_bad_value(s, side.bytes / (side.fp64 ? 8 : 4), plan.grid);
        !why.empty())
        return name + why;
    MPI_CHECK(MPI_Allreduce(&s.lo, &c_min, 1, MPI_DOUBLE, MPI_MIN, comm));
    MPI_CHECK(MPI_Allreduce(&s.hi, &c_max, 1, MPI_DOUBLE, MPI_MAX, comm));
    plan.model_fp64 = side.fp64 != 0;
    plan.model_crc32 = side.crc32;
    return {};
}

} // namespace stencil
