#include "outputs/outputs.hpp"

#include "io/hdf5_file.hpp"
#include "mpi_util.hpp"
#include "outputs/image.hpp"
#include "outputs/output_shapes.hpp"
#include "outputs/output_state.hpp"
#include "stream.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace stencil {
namespace {

const char* kAxes = "xyz";

std::string sidecar_json(const RunContext& run, int step, const std::string& file,
                         const FieldFile& written, const Provenance& provenance) {
    const Options& c = run.options;
    const RunPlan& plan = run.plan;
    const Physics& p = run.physics;
    const std::string dtype = numpy_dtype(c.precision);
    Json doc = integrity_json(file, written.bytes, written.crc32, plan.run_id, provenance);
    doc["dtype"] = dtype;
    doc["order"] = "x fastest: numpy.fromfile(file, numpy." + dtype + ").reshape(nz, ny, nx)";
    if (c.output_format == OutputFormat::Hdf5) {
        doc["format"] = "hdf5", doc["dataset"] = kHdf5Dataset;
        doc["order"] = "z, y, x: h5py.File(file)['p'] has shape (nz, ny, nx), x fastest";
    }
    doc["dims"] = plan.grid;
    doc["spacing_m"] = {c.spacing, c.spacing, c.spacing};
    doc["dt_s"] = p.dt;
    doc["step"] = step;
    doc["time_s"] = step * p.dt;
    doc["radius"] = c.radius;
    doc["xdmf"] = file.substr(0, file.rfind('.')) + ".xmf"; // ParaView and VisIt open it
    doc["byte_order"] = native_endian()[0] == 'L' ? "little" : "big";
    return json_text(doc);
}

// An HDF5 snapshot's dataset's attributes: the sidecar's description of the
// field (dims x, y, z as there) and its provenance; not the run's name, so a
// restart's snapshots are the uninterrupted run's, byte for byte.
Json hdf5_attributes(const RunContext& run, int step, const Provenance& provenance) {
    const Options& c = run.options;
    return {{"step", step},
            {"time_s", step * run.physics.dt},
            {"dt_s", run.physics.dt},
            {"dims", run.plan.grid},
            {"order", "z, y, x: the dataset's shape is (nz, ny, nx), x fastest"},
            {"spacing_m", {c.spacing, c.spacing, c.spacing}},
            {"origin_m", {0.0, 0.0, 0.0}},
            {"dtype", numpy_dtype(c.precision)},
            {"radius", c.radius},
            {"units", "pressure (source-normalised); metres, seconds"},
            {"provenance", provenance.json()}};
}

// The step an output file is of (snapshot_NNNNNN.raw/.h5/.json,
// slice_AK_NNNNNN.png, six digits or more), or -1 for the files a run
// writes once, at its end.
long step_of_output(const std::string& name) {
    const auto dot = name.rfind('.');
    const auto underscore = name.rfind('_', dot);
    if (dot == std::string::npos || underscore == std::string::npos || dot - underscore < 7 ||
        name.rfind("traces", 0) == 0 || name.rfind("shot_gather", 0) == 0)
        return -1;
    const std::string digits = name.substr(underscore + 1, dot - underscore - 1);
    if (digits.size() > 12 || digits.find_first_not_of("0123456789") != std::string::npos)
        return -1;
    return std::stol(digits);
}

} // namespace

Outputs::Outputs(const RunContext& run, FieldQueries& fields, const Provenance& provenance)
    : state_(std::make_unique<State>(run, fields, provenance)) {
    State& s = *state_;
    const Options& c = run.options;
    const RunPlan& plan = run.plan;
    const Physics& physics = run.physics;
    s.receivers = plan.receivers;
    if (c.line_axis == 2)
        for (int x = 0; x < plan.grid[0]; ++x)
            s.receivers.push_back({x, physics.source[1], c.line_index});
    std::vector<std::size_t> offsets;
    for (int n = 0; n < int(s.receivers.size()); ++n) {
        std::size_t offset = 0;
        if (fields.local_offset(s.receivers[n], offset))
            s.mine.push_back(n), offsets.push_back(offset);
    }
    if (!offsets.empty()) {
        s.offsets = DeviceArray<std::size_t>(offsets.size());
        copy_to_device(s.offsets, offsets.data());
        s.capacity = c.steps;
        s.samples = DeviceArray<double>(offsets.size() * std::size_t(s.capacity));
    }
    start_record();
}

Outputs::~Outputs() = default;

void Outputs::start_record() {
    State& s = *state_;
    s.recording = s.plan.claims_output && world_rank() == 0;
    s.manifest.lineage = s.manifest.run = s.plan.run_id;
    s.manifest.steps = s.c.steps;
    // A restart's record is the earlier run's until resume_at has checked it.
    std::string problem;
    if (s.recording && s.c.restart.empty()) problem = s.manifest.write(s.c.output);
    agree_on_outcome(s.fields.decomposition().cart.get(), problem);
}

std::string Outputs::State::record(const std::vector<std::string>& names, bool end, int step) {
    if (!recording) return {};
    for (const std::string& name : names)
        manifest.add(name, end);
    manifest.step = step;
    return manifest.write(c.output);
}

void Outputs::ended(const char* state, int step, const std::string& checkpoint) {
    if (!state_->recording) return;
    state_->manifest.state = state;
    if (std::string(state) == "stopped") state_->manifest.stop_checkpoint = checkpoint;
    reached(step);
}

void Outputs::checked(const Provenance& checked, bool failed) {
    State& s = *state_;
    s.manifest.provenance = checked;
    if (!s.recording) return;
    if (failed) s.manifest.state = "failed";
    if (const std::string why = s.manifest.write(s.c.output); !why.empty())
        std::fprintf(stderr, "stencil-miniapp: %s\n", why.c_str());
}

const Provenance& Outputs::provenance() const {
    return state_->manifest.provenance;
}

void Outputs::reached(int step) {
    State& s = *state_;
    if (!s.recording) return;
    if (const std::string why = s.record({}, false, step); !why.empty())
        std::fprintf(stderr, "stencil-miniapp: %s\n", why.c_str());
}

const std::string& Outputs::lineage() const {
    return state_->manifest.lineage;
}

const OutputTimes& Outputs::times() const {
    return state_->times;
}

void Outputs::after_step(int n) {
    State& s = *state_;
    if (!s.receivers.empty()) {
        const int count = int(s.mine.size());
        if (count) {
            if (s.recorded >= s.capacity) fatal("more steps than the receiver buffer holds");
            s.fields.sample(s.offsets.data(), count,
                            s.samples.data() + std::size_t(s.recorded) * count);
        }
        ++s.recorded;
    }
    if (s.c.snapshot_every > 0 && n % s.c.snapshot_every == 0) {
        const std::vector<double> interior = s.fields.interior_copy();
        const double start = wall_clock_ms();
        s.snapshot(n, interior);
        s.times.snapshot_seconds += (wall_clock_ms() - start) * 1e-3;
        ++s.times.snapshots;
        if (s.c.slice_axis >= 0) s.slice(n, interior, false);
    }
}

bool Outputs::due_after(int n) const {
    const State& s = *state_;
    return !s.receivers.empty() || (s.c.snapshot_every > 0 && n % s.c.snapshot_every == 0);
}

void Outputs::finish(int steps_done) {
    State& s = *state_;
    if (s.c.slice_axis >= 0) s.slice(steps_done, s.fields.interior_copy(), true);
    if (!s.receivers.empty()) {
        const double start = wall_clock_ms();
        s.write_traces();
        s.times.trace_seconds = (wall_clock_ms() - start) * 1e-3, s.times.traces = true;
    }
    s.manifest.state = "complete";
    std::string problem;
    if (s.recording) problem = s.record({}, false, steps_done);
    agree_on_outcome(s.fields.decomposition().cart.get(), problem);
}

std::string Outputs::resume_at(int step, const std::string& lineage, const Provenance& made) {
    State& s = *state_;
    s.manifest.provenance.inherit(made, step);
    std::string problem;
    if (s.recording) problem = s.resume_record(step, lineage);
    return first_problem(s.fields.decomposition().cart.get(), problem);
}

std::string Outputs::State::resume_record(int step, const std::string& lineage) {
    const std::string& dir = c.output;
    if (std::string why = RunManifest::in_the_way(dir); !why.empty()) return "--output: " + why;
    RunManifest earlier;
    const std::string read = RunManifest::read(dir, earlier);
    const std::vector<std::string> present = earlier_outputs(dir);
    if (!read.empty() && read != "none") return "--output " + dir + ": " + read;
    if (read == "none" && !present.empty())
        return unrecorded_outputs_problem(dir, present,
                                          "a restart removes only what it can prove its run wrote");
    if (read.empty() && earlier.lineage != lineage)
        return "--output " + dir + " holds the outputs of another run (" + earlier.lineage +
               "), not those of the run the checkpoint continues (" + lineage +
               "); restart into that run's --output, or another folder";
    for (const std::string& name : present) {
        if (!is_partial_name(name) && !earlier.files.count(name))
            return "--output " + dir + " holds " + name +
                   ", named as this program's output but not in the record of the run that "
                   "wrote the folder; move it, or choose another folder";
    }
    return resume_files(step, lineage, earlier, present);
}

std::string Outputs::State::resume_files(int step, const std::string& lineage,
                                         const RunManifest& earlier,
                                         const std::vector<std::string>& present) {
    manifest.files = earlier.files;
    manifest.lineage = lineage;
    int removed = 0;
    std::string problem;
    // Each file the run recorded writing after `step` or at its end, and
    // the unfinished writes of this run's outputs (.partial).
    std::vector<std::string> doomed;
    for (const auto& [name, end] : earlier.files)
        if (end || step_of_output(name) > step) doomed.push_back(name);
    for (const std::string& name : present)
        if (is_partial_name(name)) doomed.push_back(name);
    // What stays must be there, or the folder cannot end as the
    // uninterrupted run's, file for file.
    for (const auto& [name, end] : earlier.files) {
        std::error_code ignored;
        if (!end && step_of_output(name) <= step &&
            !std::filesystem::exists(c.output + "/" + name, ignored))
            return "--output " + c.output + ": " + name + ", which the run wrote before step " +
                   std::to_string(step) +
                   ", is missing: the folder could not end as the uninterrupted run's; restore "
                   "it, or restart into another folder";
    }
    if (earlier.files.empty() && step > 0 && (c.snapshot_every > 0 || c.slice_axis >= 0))
        std::fprintf(stderr,
                     "note: --restart: --output %s holds none of what the run wrote before step "
                     "%d: those files are where it wrote them\n",
                     c.output.c_str(), step);
    for (const std::string& name : doomed) {
        const std::string path = c.output + "/" + name;
        std::error_code error;
        const auto status = std::filesystem::symlink_status(path, error);
        manifest.files.erase(name);
        if (!std::filesystem::exists(status)) continue;
        if (!std::filesystem::is_regular_file(status)) {
            std::fprintf(stderr, "note: --restart: left %s: not a regular file\n", path.c_str());
            continue;
        }
        if (std::remove(path.c_str()) != 0 && problem.empty())
            problem = "--restart: cannot remove " + path + " (" + std::strerror(errno) + ")";
        ++removed;
    }
    if (removed > 0 && problem.empty())
        std::fprintf(stderr,
                     "note: --restart: removed %d output files the earlier run wrote after "
                     "step %d, or at its end; this run writes them again\n",
                     removed, step);
    if (problem.empty()) problem = record({}, false, step);
    return problem;
}

void Outputs::State::snapshot(int step, const std::vector<double>& interior) {
    const Decomposition& d = fields.decomposition();
    const std::string name = snapshot_name(step, c.output_format);
    const std::string path = c.output + "/" + name;
    const bool inject = plan.aids.snapshot_write_fails(snapshots, d.rank, d.size); // test aid
    const RunContext run{c, plan, physics};
    const FieldFile written = dispatch_precision(c.precision, [&](auto zero) {
        const auto values = narrowed<decltype(zero)>(interior);
        if (c.output_format == OutputFormat::Hdf5)
            return write_hdf5_field(d, path, values,
                                    hdf5_attributes(run, step, manifest.provenance), inject);
        return write_field_file(d, path, values, inject);
    });
    ++snapshots;
    // Its XDMF next, then the sidecar last: one that exists always
    // describes a complete data file; then the series, which lists it.
    std::string problem;
    const std::string stem = name.substr(0, name.rfind('.'));
    const std::string sidecar = stem + ".json", xmf = stem + ".xmf";
    if (d.rank == 0)
        problem = write_file_completely(c.output + "/" + xmf, snapshot_xdmf(xdmf_of(step)));
    if (problem.empty() && d.rank == 0)
        problem = write_file_completely(
            c.output + "/" + sidecar, sidecar_json(run, step, name, written, manifest.provenance));
    if (problem.empty() && d.rank == 0) problem = write_series(step);
    if (problem.empty() && d.rank == 0)
        problem = record({name, xmf, sidecar, kSeries}, false, step);
    agree_on_outcome(d.cart.get(), problem);
}

XdmfSnapshot Outputs::State::xdmf_of(int step) const {
    XdmfSnapshot s;
    s.file = snapshot_name(step, c.output_format), s.dims = plan.grid, s.spacing = c.spacing;
    s.precision = c.precision, s.step = step, s.time = step * physics.dt;
    if (c.output_format == OutputFormat::Hdf5) s.dataset = kHdf5Dataset;
    return s;
}

std::string Outputs::State::write_series(int step) const {
    // Every snapshot of the run up to `step` that is in the folder: a
    // restart into another folder has not the earlier ones there.
    std::vector<XdmfSnapshot> series;
    for (int k = c.snapshot_every; k <= step; k += c.snapshot_every) {
        XdmfSnapshot s = xdmf_of(k);
        std::error_code ignored;
        if (std::filesystem::exists(c.output + "/" + s.file, ignored)) series.push_back(s);
    }
    return write_file_completely(c.output + "/" + kSeries, series_xdmf(series));
}

void Outputs::State::slice(int step, const std::vector<double>& interior, bool end) {
    const Decomposition& d = fields.decomposition();
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
    char name[64];
    std::snprintf(name, sizeof name, "slice_%c%d_%06d.png", kAxes[a], K, step);
    if (problem.empty() && d.rank == 0) problem = record({name}, end, step);
    agree_on_outcome(d.cart.get(), problem);
}

std::string Outputs::State::draw_slice(int step, const std::vector<int>& boxes,
                                       const std::vector<int>& displs,
                                       const std::vector<float>& all) const {
    const int a = c.slice_axis, K = c.slice_index;
    int across = 0, down = 0;
    slice_axes(a, across, down);
    Image image;
    image.width = plan.grid[across], image.height = plan.grid[down];
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

} // namespace stencil
