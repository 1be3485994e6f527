// Receiver traces: recorded on the device by the rank that owns each
// receiver's cell, gathered to rank 0 at the end into traces.bin or
// traces.sgy or both (--trace-format; with a sidecar and a shot-gather
// image), and at each checkpoint into the
// checkpoint, from which a restarted run, on any rank count, takes them up.
#include "mpi_util.hpp"
#include "outputs/image.hpp"
#include "outputs/output_shapes.hpp"
#include "outputs/output_state.hpp"
#include "outputs/segy.hpp"
#include "stencil_version.hpp"

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
        std::vector<std::string> names = {"traces.json"};
        if (c.trace_format != TraceFormat::Segy) names.push_back("traces.bin");
        if (c.trace_format != TraceFormat::Raw) names.push_back("traces.sgy");
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

// The run's gather as traces.sgy describes it (segy.hpp).
SegyGather Outputs::State::segy_gather() const {
    const auto& g = plan.grid;
    const auto& s = physics.source;
    char line[3][96];
    std::snprintf(line[0], sizeof line[0], "GRID %d X %d X %d CELLS, SPACING %.17g M, Z IS DEPTH",
                  g[0], g[1], g[2], c.spacing);
    std::snprintf(line[1], sizeof line[1], "SOURCE AT CELL %d,%d,%d (X Y Z = CELL X SPACING)", s[0],
                  s[1], s[2]);
    std::snprintf(line[2], sizeof line[2], "DT %.17g S; SAMPLE K IS T = K DT, SAMPLE 0 AT REST",
                  physics.dt);
    return {receivers,
            s,
            c.spacing,
            physics.dt,
            recorded,
            {std::string("STENCIL-MINIAPP ") + STENCIL_VERSION_STRING, "RUN " + plan.run_id,
             "ONE SHOT GATHER, A TRACE A RECEIVER IN TRACES.JSON'S ORDER", line[0], line[1],
             line[2], "SAMPLE INTERVAL IN THE HEADERS: WHOLE MICROSECONDS",
             "IEEE FLOAT32 BIG-ENDIAN (CODE 5); AN FP64 RUN'S NARROWED",
             "COORDINATES AND DEPTHS IN METRES, SCALED BY BYTES 69-72",
             "RECEIVER DEPTH: MINUS BYTES 41-44; SOURCE DEPTH: BYTES 49-52"}};
}

// Rank 0: traces.bin and traces.sgy as --trace-format asks, their
// description in `doc` (the sidecar's keys); "" or why not.
std::string Outputs::State::write_trace_files(const std::vector<double>& ordered, Json& doc) const {
    const bool raw = c.trace_format != TraceFormat::Segy, segy = c.trace_format != TraceFormat::Raw;
    FieldFile bin, sgy;
    if (raw)
        if (std::string why =
                write_traces_file(c.output + "/traces.bin", c.precision, ordered, bin);
            !why.empty())
            return why;
    if (segy) {
        const std::vector<unsigned char> bytes = segy_file(segy_gather(), ordered);
        sgy.bytes = bytes.size(), sgy.crc32 = crc32_of(bytes.data(), bytes.size());
        if (std::string why =
                write_file_completely(c.output + "/traces.sgy", bytes.data(), bytes.size());
            !why.empty())
            return why;
    }
    const std::string dtype = numpy_dtype(c.precision);
    doc =
        raw ? integrity_json("traces.bin", bin.bytes, bin.crc32, plan.run_id, manifest.provenance)
            : integrity_json("traces.sgy", sgy.bytes, sgy.crc32, plan.run_id, manifest.provenance);
    if (raw)
        doc["dtype"] = dtype, doc["order"] = "receiver-major: numpy.fromfile(file, numpy." + dtype +
                                             ").reshape(receivers, nt)";
    doc["nt"] = recorded;
    doc["dt_s"] = physics.dt;
    if (raw) doc["first_time_s"] = physics.dt;
    doc["receivers"] = receivers;
    doc["spacing_m"] = c.spacing; // the receivers' cells in metres
    if (segy)
        doc["segy"] = {
            {"file", "traces.sgy"},          {"bytes", sgy.bytes},
            {"crc32", crc32_hex(sgy.crc32)}, {"revision", "1.0"},
            {"samples", recorded + 1},       {"sample_interval_us", segy_interval_us(physics.dt)},
            {"first_sample_s", 0.0},         {"format", "IEEE float32, big-endian (code 5)"},
            {"source", physics.source}};
    return {};
}

// Rank 0: the trace files, then their sidecar, then the shot gather.
std::string Outputs::State::save_traces(const std::vector<double>& ordered) const {
    const int nt = recorded;
    Json doc;
    if (std::string why = write_trace_files(ordered, doc); !why.empty()) return why;
    if (std::string why = write_file_completely(c.output + "/traces.json", json_text(doc));
        !why.empty())
        return why;
    const std::string files = c.output + "/" + doc["file"].get<std::string>() +
                              (c.trace_format == TraceFormat::Both ? " and traces.sgy" : "");
    if (!images_available()) {
        std::printf("traces: %zu receivers x %d steps in %s (no PNG: built without libstb-dev)\n",
                    receivers.size(), nt, files.c_str());
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
    std::printf("traces: %d receivers x %d steps in %s, shot gather %s/shot_gather.png",
                receiver_count, nt, files.c_str(), c.output.c_str());
    if (column_stride > 1)
        std::printf(" (one receiver in %d drawn: at most %d columns)", column_stride,
                    kMaxGatherWidth);
    std::printf("\n");
    return {};
}

} // namespace stencil
