// Receiver traces: recorded on the device by the rank that owns each
// receiver's cell, gathered to rank 0 at the end into traces.bin (with a
// sidecar and a shot-gather image), and at each checkpoint into the
// checkpoint, from which a restarted run, on any rank count, takes them up.
#include "mpi_util.hpp"
#include "outputs/image.hpp"
#include "outputs/output_shapes.hpp"
#include "outputs/output_state.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>

namespace stencil {
namespace {

// Rank 0: receiver-major traces written to `path` in the run's precision
// (narrowing an FP32 run's is exact: they were widened from it), with their
// length and CRC-32 in `written`; "" or why not. traces.bin and a
// checkpoint's traces are both this.
std::string write_traces_file(const std::string& path, Precision precision,
                              const std::vector<double>& ordered, FieldFile& written) {
    return dispatch_precision(precision, [&](auto zero) {
        const auto values = narrowed<decltype(zero)>(ordered);
        written.bytes = values.size() * sizeof(values[0]);
        written.crc32 = crc32_of(values.data(), written.bytes);
        return write_file_completely(path, values.data(), written.bytes);
    });
}

} // namespace

std::vector<double> Outputs::State::gathered_traces() {
    const Decomposition& d = fields.decomposition();
    const int nt = recorded, owned = int(mine.size());
    std::vector<double> traces(std::size_t(owned) * nt); // time-major, as recorded
    fields.settle(); // the samples were enqueued, not waited for
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
    std::vector<double> ordered(gathered.size());
    if (d.rank == 0) {
        if (indices.size() != receivers.size())
            fatal("a receiver was recorded by no rank or by two");
        for (std::size_t g = 0; g < indices.size(); ++g)
            std::copy_n(gathered.begin() + g * nt, nt,
                        ordered.begin() + std::size_t(indices[g]) * nt);
    }
    return ordered;
}

void Outputs::State::write_traces() {
    const std::vector<double> ordered = gathered_traces();
    std::string problem;
    if (fields.decomposition().rank == 0) problem = save_traces(ordered);
    if (problem.empty() && fields.decomposition().rank == 0) {
        std::vector<std::string> names = {"traces.bin", "traces.json"};
        if (images_available()) names.push_back("shot_gather.png");
        problem = record(names, true, recorded);
    }
    agree_on_outcome(fields.decomposition().cart.get(), problem);
}

bool Outputs::save_traces_to(const std::string& path, FieldFile& written) {
    State& s = *state_;
    if (s.receivers.empty()) return false;
    const std::vector<double> ordered = s.gathered_traces();
    std::string problem;
    if (s.fields.decomposition().rank == 0)
        problem = write_traces_file(path, s.c.precision, ordered, written);
    agree_on_outcome(s.fields.decomposition().cart.get(), problem);
    return true;
}

namespace {

// Rank 0: a checkpoint's traces, checked, widened to double; "" or why not.
template <class T>
std::string read_traces(const std::string& path, const FieldFile& expected, std::size_t count,
                        std::vector<double>& out) {
    std::vector<T> values(count);
    const std::uint64_t bytes = count * sizeof(T);
    if (expected.bytes != bytes)
        return "traces.bin: " + std::to_string(expected.bytes) + " bytes listed, " +
               std::to_string(bytes) + " expected";
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) return "traces.bin: cannot read it";
    if (std::uint64_t(in.tellg()) != bytes)
        return "traces.bin: " + std::to_string(std::uint64_t(in.tellg())) + " bytes, " +
               std::to_string(bytes) + " expected";
    in.seekg(0);
    if (!in.read(reinterpret_cast<char*>(values.data()), std::streamsize(bytes)))
        return "traces.bin: cannot read it";
    if (const std::uint32_t crc = crc32_of(values.data(), bytes); crc != expected.crc32)
        return "traces.bin: CRC-32 " + crc32_hex(crc) + ", " + crc32_hex(expected.crc32) +
               " expected";
    out.assign(values.begin(), values.end());
    return {};
}

} // namespace

std::string Outputs::load_traces(const std::string& path, const FieldFile& expected, int step) {
    State& s = *state_;
    const Decomposition& d = s.fields.decomposition();
    if (step > s.capacity && !s.mine.empty()) fatal("more steps than the receiver buffer holds");
    std::vector<double> ordered;
    std::string problem;
    if (d.rank == 0)
        problem = dispatch_precision(s.c.precision, [&](auto zero) {
            return read_traces<decltype(zero)>(path, expected,
                                               s.receivers.size() * std::size_t(step), ordered);
        });
    if (std::string why = first_problem(d.cart.get(), problem); !why.empty()) return why;
    // Each rank's rows, in the order of its receivers, in rank order.
    const std::vector<int> indices = gather_to_root(d.cart.get(), s.mine);
    std::vector<double> parts;
    if (d.rank == 0)
        for (const int g : indices)
            parts.insert(parts.end(), ordered.begin() + std::size_t(g) * step,
                         ordered.begin() + std::size_t(g + 1) * step);
    const int owned = int(s.mine.size());
    const std::vector<double> rows = scatter_from_root(d.cart.get(), parts, owned * step);
    std::vector<double> time_major(rows.size());
    for (int m = 0; m < owned; ++m)
        for (int t = 0; t < step; ++t)
            time_major[std::size_t(t) * owned + m] = rows[std::size_t(m) * step + t];
    if (!time_major.empty())
        copy(s.samples.data(), time_major.data(), time_major.size() * sizeof(double));
    s.recorded = step;
    return {};
}

// Rank 0: traces.bin, then its sidecar, then the shot gather.
std::string Outputs::State::save_traces(const std::vector<double>& ordered) const {
    const int nt = recorded;
    // The file in the run's precision: its bytes, and their CRC.
    FieldFile written;
    if (std::string why =
            write_traces_file(c.output + "/traces.bin", c.precision, ordered, written);
        !why.empty())
        return why;
    const std::string dtype = numpy_dtype(c.precision);
    Json doc = integrity_json("traces.bin", written.bytes, written.crc32, plan.run_id,
                              manifest.provenance);
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
