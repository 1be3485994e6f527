#include "outputs.hpp"

#include "checked_io.hpp"
#include "crc32.hpp"
#include "field_file.hpp"
#include "image.hpp"
#include "memory.hpp"
#include "mpi_util.hpp"
#include "output_shapes.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace stencil {
namespace {

const char* kAxes = "xyz";

std::string hex32(std::uint32_t v) {
    char text[9];
    std::snprintf(text, sizeof text, "%08x", v);
    return text;
}

// What ties a sidecar to its raw file: its name, length, checksum and the
// run's name.
Json integrity_json(const std::string& file, std::uint64_t bytes, std::uint32_t crc,
                    const std::string& run_id) {
    return {{"file", file}, {"bytes", bytes}, {"crc32", hex32(crc)}, {"run", run_id}};
}

// The element type of raw files, as numpy names it.
const char* numpy_dtype(Precision p) {
    return p == Precision::FP64 ? "float64" : "float32";
}

// `values` in the run's precision, as raw bytes. Values came from the
// device widened to double, so narrowing an FP32 run's back is exact.
template <class T>
std::vector<T> narrowed(const std::vector<double>& values) {
    return std::vector<T>(values.begin(), values.end());
}

std::string sidecar_json(const Config& c, const Physics& p, int step, const std::string& file,
                         const FieldFile& written) {
    const std::string dtype = numpy_dtype(c.precision);
    Json doc = integrity_json(file, written.bytes, written.crc32, c.run_id);
    doc["dtype"] = dtype;
    doc["order"] = "x fastest: numpy.fromfile(file, numpy." + dtype + ").reshape(nz, ny, nx)";
    doc["dims"] = c.grid;
    doc["spacing_m"] = {c.spacing, c.spacing, c.spacing};
    doc["dt_s"] = p.dt;
    doc["step"] = step;
    doc["time_s"] = step * p.dt;
    doc["radius"] = c.radius;
    return json_text(doc);
}

} // namespace

struct Outputs::State {
    Config c;
    Physics physics;
    Simulation& sim;
    std::vector<std::array<int, 3>> receivers; // all of them, in order
    std::vector<int> mine;                     // indices into receivers owned here
    DeviceArray<std::size_t> offsets;          // their offsets in the field
    // Every step's samples stay on the device, one row of owned receivers
    // per step (time-major), and come to the host once, at the end.
    DeviceArray<double> samples;
    int capacity = 0; // steps the sample buffer holds
    int recorded = 0;
    int snapshots = 0; // written so far

    State(const Config& config, const Physics& p, Simulation& s) : c(config), physics(p), sim(s) {}
    void snapshot(int step, const std::vector<double>& interior);
    void slice(int step, const std::vector<double>& interior);
    std::string draw_slice(int step, const std::vector<int>& boxes, const std::vector<int>& displs,
                           const std::vector<float>& all) const;
    void write_traces();
    std::string save_traces(const std::vector<double>& ordered) const;
};

Outputs::Outputs(const Config& c, const Physics& physics, Simulation& sim)
    : state_(std::make_unique<State>(c, physics, sim)) {
    State& s = *state_;
    s.receivers = c.receivers;
    if (c.line_axis == 2)
        for (int x = 0; x < c.grid[0]; ++x)
            s.receivers.push_back({x, physics.source[1], c.line_index});
    std::vector<std::size_t> offsets;
    for (int n = 0; n < int(s.receivers.size()); ++n) {
        std::size_t offset = 0;
        if (sim.local_offset(s.receivers[n], offset))
            s.mine.push_back(n), offsets.push_back(offset);
    }
    if (!offsets.empty()) {
        s.offsets = DeviceArray<std::size_t>(offsets.size());
        copy_to_device(s.offsets, offsets.data());
        s.capacity = c.steps;
        s.samples = DeviceArray<double>(offsets.size() * std::size_t(s.capacity));
    }
}

Outputs::~Outputs() = default;

void Outputs::after_step(int n) {
    State& s = *state_;
    if (!s.receivers.empty()) {
        const int count = int(s.mine.size());
        if (count) {
            if (s.recorded >= s.capacity) fatal("more steps than the receiver buffer holds");
            s.sim.sample(s.offsets.data(), count,
                         s.samples.data() + std::size_t(s.recorded) * count);
        }
        ++s.recorded;
    }
    if (s.c.snapshot_every > 0 && n % s.c.snapshot_every == 0) {
        const std::vector<double> interior = s.sim.interior_copy();
        s.snapshot(n, interior);
        if (s.c.slice_axis >= 0) s.slice(n, interior);
    }
}

void Outputs::finish(int steps_done) {
    State& s = *state_;
    if (s.c.slice_axis >= 0) s.slice(steps_done, s.sim.interior_copy());
    if (!s.receivers.empty()) s.write_traces();
}

void Outputs::State::snapshot(int step, const std::vector<double>& interior) {
    const Decomposition& d = sim.decomposition();
    char name[64];
    std::snprintf(name, sizeof name, "snapshot_%06d.raw", step);
    const std::string path = c.output + "/" + name;
    const bool inject = c.inject_write_error && snapshots == 1 && d.rank == d.size - 1;
    const FieldFile written = dispatch_precision(c.precision, [&](auto zero) {
        return write_field_file(d, path, narrowed<decltype(zero)>(interior), inject);
    });
    ++snapshots;
    // The sidecar last: one that exists always describes a complete raw file.
    std::string problem;
    if (d.rank == 0)
        problem = write_file_completely(path.substr(0, path.size() - 4) + ".json",
                                        sidecar_json(c, physics, step, name, written));
    agree_on_outcome(d.cart.get(), problem);
}

void Outputs::State::slice(int step, const std::vector<double>& interior) {
    const Decomposition& d = sim.decomposition();
    const int a = c.slice_axis, K = c.slice_index;
    int across = 0, down = 0;
    slice_axes(a, across, down);
    std::vector<float> piece;
    std::vector<int> box(4, 0); // first across, first down, count across, count down
    if (K >= d.offset[a] && K < d.offset[a] + d.local[a]) {
        box[0] = d.offset[across], box[1] = d.offset[down], box[2] = d.local[across],
        box[3] = d.local[down];
        for (int v = 0; v < d.local[down]; ++v)
            for (int u = 0; u < d.local[across]; ++u) {
                int l[3];
                l[a] = K - d.offset[a], l[across] = u, l[down] = v;
                // Images are drawn in float, whatever the run's precision.
                piece.push_back(
                    float(interior[l[0] + std::size_t(d.local[0]) *
                                              (l[1] + std::size_t(d.local[1]) * l[2])]));
            }
    }
    const std::vector<int> boxes = gather_to_root(d.cart.get(), box);
    std::vector<int> displs;
    const std::vector<float> all = gather_to_root(d.cart.get(), piece, &displs);
    std::string problem;
    if (d.rank == 0) problem = draw_slice(step, boxes, displs, all);
    agree_on_outcome(d.cart.get(), problem);
}

std::string Outputs::State::draw_slice(int step, const std::vector<int>& boxes,
                                       const std::vector<int>& displs,
                                       const std::vector<float>& all) const {
    const int a = c.slice_axis, K = c.slice_index;
    int across = 0, down = 0;
    slice_axes(a, across, down);
    Image image;
    image.width = c.grid[across], image.height = c.grid[down];
    image.values.assign(std::size_t(image.width) * image.height, 0.0f);
    for (std::size_t r = 0; r < displs.size(); ++r) {
        const int* b = &boxes[4 * r];
        std::size_t n = displs[r];
        for (int v = 0; v < b[3]; ++v)
            for (int u = 0; u < b[2]; ++u)
                image.values[std::size_t(b[1] + v) * image.width + b[0] + u] = all[n++];
    }
    image.markers.push_back({physics.source[across], physics.source[down]});
    if (c.sponge > 0)
        image.outlines.push_back(
            {c.sponge, c.sponge, image.width - 1 - c.sponge, image.height - 1 - c.sponge});
    char name[64];
    std::snprintf(name, sizeof name, "slice_%c%d_%06d.png", kAxes[a], K, step);
    return write_seismic_png(c.output + "/" + name, image, clip_at_percentile(image.values, 99.5));
}

void Outputs::State::write_traces() {
    const Decomposition& d = sim.decomposition();
    const int nt = recorded, owned = int(mine.size());
    std::vector<double> traces(std::size_t(owned) * nt); // time-major, as recorded
    sim.settle(); // the samples were enqueued, not waited for
    if (!traces.empty()) copy(traces.data(), samples.data(), traces.size() * sizeof(double));
    // Here traces are time-major (one row of owned receivers per step);
    // the file is receiver-major, so transpose while gathering.
    std::vector<double> rows(std::size_t(owned) * nt);
    for (int t = 0; t < nt; ++t)
        for (int m = 0; m < owned; ++m)
            rows[std::size_t(m) * nt + t] = traces[std::size_t(t) * owned + m];
    // Rank order in both: the g-th gathered index names the g-th trace.
    const std::vector<int> indices = gather_to_root(d.cart.get(), mine);
    const std::vector<double> gathered = gather_to_root(d.cart.get(), rows);
    std::string problem;
    if (d.rank == 0) {
        if (indices.size() != receivers.size())
            fatal("a receiver was recorded by no rank or by two");
        std::vector<double> ordered(gathered.size());
        for (std::size_t g = 0; g < indices.size(); ++g)
            std::copy_n(gathered.begin() + g * nt, nt,
                        ordered.begin() + std::size_t(indices[g]) * nt);
        problem = save_traces(ordered);
    }
    agree_on_outcome(d.cart.get(), problem);
}

// Rank 0: traces.bin, then its sidecar, then the shot gather.
std::string Outputs::State::save_traces(const std::vector<double>& ordered) const {
    const int nt = recorded;
    // The file in the run's precision: its bytes, and their CRC.
    std::uint32_t crc = 0;
    std::size_t bytes = 0;
    const std::string why = dispatch_precision(c.precision, [&](auto zero) {
        const auto values = narrowed<decltype(zero)>(ordered);
        bytes = values.size() * sizeof(values[0]);
        crc = crc32_of(values.data(), bytes);
        return write_file_completely(c.output + "/traces.bin", values.data(), bytes);
    });
    if (!why.empty()) return why;
    const std::string dtype = numpy_dtype(c.precision);
    Json doc = integrity_json("traces.bin", bytes, crc, c.run_id);
    doc["dtype"] = dtype;
    doc["order"] =
        "receiver-major: numpy.fromfile(file, numpy." + dtype + ").reshape(receivers, nt)";
    doc["nt"] = nt;
    doc["dt_s"] = physics.dt;
    doc["first_time_s"] = physics.dt;
    doc["receivers"] = receivers;
    if (std::string why = write_file_completely(c.output + "/traces.json", json_text(doc));
        !why.empty())
        return why;
    if (!images_available()) {
        std::printf("traces: %zu receivers x %d steps in %s/traces.bin (no PNG: built without "
                    "libstb-dev)\n",
                    receivers.size(), nt, c.output.c_str());
        return {};
    }
    // The shot gather: receivers across, time down, both decimated to a
    // size an image holds (output_shapes.hpp).
    const int receiver_count = int(receivers.size());
    const int column_stride = gather_column_stride(receiver_count);
    const int stride = gather_stride(nt, receiver_count);
    Image gather;
    gather.width = gather_width(receiver_count);
    gather.height = (nt + stride - 1) / stride;
    gather.values.resize(std::size_t(gather.width) * gather.height);
    for (int row = 0; row < gather.height; ++row)
        for (int col = 0; col < gather.width; ++col)
            gather.values[std::size_t(row) * gather.width + col] =
                ordered[std::size_t(col) * column_stride * nt + std::size_t(row) * stride];
    if (std::string why = write_seismic_png(c.output + "/shot_gather.png", gather,
                                            clip_at_percentile(gather.values, 95));
        !why.empty())
        return why;
    std::printf("traces: %d receivers x %d steps in %s/traces.bin, shot gather %s/shot_gather.png",
                receiver_count, nt, c.output.c_str(), c.output.c_str());
    if (column_stride > 1)
        std::printf(" (one receiver in %d drawn: at most %d columns)", column_stride,
                    kMaxGatherWidth);
    std::printf("\n");
    return {};
}

} // namespace stencil
