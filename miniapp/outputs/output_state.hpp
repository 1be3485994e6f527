// Internal to the outputs (outputs.cpp: snapshots, slices, a restart's
// folder; traces.cpp: receivers): what an Outputs keeps, and the parts of a
// sidecar that every raw file's has.
#pragma once

#include "io/checked_io.hpp"
#include "io/crc32.hpp"
#include "io/field_file.hpp"
#include "io/run_manifest.hpp"
#include "memory.hpp"
#include "outputs/outputs.hpp"
#include "outputs/segy.hpp"
#include "outputs/xdmf.hpp"

#include <array>
#include <cstdio>
#include <string>
#include <vector>

namespace stencil {

// What ties a sidecar to its data file: its name, length, checksum and the
// run's name; and where the field in it came from.
inline Json integrity_json(const std::string& file, std::uint64_t bytes, std::uint32_t crc,
                           const std::string& run_id, const Provenance& provenance) {
    return {{"file", file},
            {"bytes", bytes},
            {"crc32", crc32_hex(crc)},
            {"run", run_id},
            {"provenance", provenance.json()}};
}

// The element type of raw files, as numpy names it.
inline const char* numpy_dtype(Precision p) {
    return p == Precision::FP64 ? "float64" : "float32";
}

// `values` in the run's precision, as raw bytes. Values came from the
// device widened to double, so narrowing an FP32 run's back is exact.
template <class T>
std::vector<T> narrowed(const std::vector<double>& values) {
    return std::vector<T>(values.begin(), values.end());
}

// snapshot_NNNNNN.raw, or .h5 with --output-format hdf5.
inline std::string snapshot_name(int step, OutputFormat format) {
    char name[64];
    std::snprintf(name, sizeof name, "snapshot_%06d.%s", step,
                  format == OutputFormat::Hdf5 ? "h5" : "raw");
    return name;
}

// The XDMF time series of every snapshot so far, rewritten at each one.
constexpr const char* kSeries = "snapshots.xmf";

struct Outputs::State {
    Options c;
    RunPlan plan;
    Physics physics;
    FieldQueries& fields;
    std::vector<std::array<int, 3>> receivers; // all of them, in order
    std::vector<int> mine;                     // indices into receivers owned here
    DeviceArray<std::size_t> offsets;          // their offsets in the field
    // Every step's samples stay on the device, one row of owned receivers
    // per step (time-major), and come to the host at the end (and at each
    // checkpoint).
    DeviceArray<double> samples;
    int capacity = 0; // steps the sample buffer holds
    int recorded = 0;
    int snapshots = 0; // written so far
    OutputTimes times;
    // Rank 0's record of the folder (io/run_manifest.hpp), where the run
    // claimed one; every file written goes into it.
    bool recording = false;
    RunManifest manifest; // its provenance is the field's, on every rank

    State(const RunContext& run, FieldQueries& f, const Provenance& provenance)
        : c(run.options), plan(run.plan), physics(run.physics), fields(f) {
        manifest.provenance = provenance;
    }
    void snapshot(int step, const std::vector<double>& interior);
    // The snapshot of `step` as its XDMF describes it (xdmf.hpp).
    XdmfSnapshot xdmf_of(int step) const;
    // Rank 0: kSeries made again, listing every snapshot up to `step`.
    std::string write_series(int step) const;
    // The slice at `step`; `end`: the run's last, not a snapshot's.
    void slice(int step, const std::vector<double>& interior, bool end);
    std::string draw_slice(int step, const std::vector<int>& boxes, const std::vector<int>& displs,
                           const std::vector<float>& all) const;
    // Collective: every trace so far on rank 0, receiver-major (receivers x
    // recorded); empty elsewhere.
    std::vector<double> gathered_traces();
    void write_traces();
    // Rank 0: `names`, written as of `step` (at the run's end only: `end`),
    // recorded and the record rewritten; "" or why it could not be.
    std::string record(const std::vector<std::string>& names, bool end, int step);
    // Rank 0, a restart at `step` of `lineage`: the folder checked against
    // its record, then what that run wrote after `step` removed
    // (resume_files) and the record taken over; "" or why not.
    std::string resume_record(int step, const std::string& lineage);
    std::string resume_files(int step, const std::string& lineage, const RunManifest& earlier,
                             const std::vector<std::string>& present);
    std::string save_traces(const std::vector<double>& ordered) const;
    std::string write_trace_files(const std::vector<double>& ordered, Json& doc) const;
    SegyGather segy_gather() const;
};

} // namespace stencil
