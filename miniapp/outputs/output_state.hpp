// Internal to the outputs (outputs.cpp: snapshots, slices, a restart's
// folder; traces.cpp: receivers): what an Outputs keeps, and the parts of a
// sidecar that every raw file's has.
#pragma once

#include "io/checked_io.hpp"
#include "io/crc32.hpp"
#include "io/field_file.hpp"
#include "memory.hpp"
#include "outputs/outputs.hpp"

#include <array>
#include <string>
#include <vector>

namespace stencil {

// What ties a sidecar to its raw file: its name, length, checksum and the
// run's name.
inline Json integrity_json(const std::string& file, std::uint64_t bytes, std::uint32_t crc,
                           const std::string& run_id) {
    return {{"file", file}, {"bytes", bytes}, {"crc32", crc32_hex(crc)}, {"run", run_id}};
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

    State(const Options& options, const RunPlan& run, const Physics& p, FieldQueries& f)
        : c(options), plan(run), physics(p), fields(f) {}
    void snapshot(int step, const std::vector<double>& interior);
    void slice(int step, const std::vector<double>& interior);
    std::string draw_slice(int step, const std::vector<int>& boxes, const std::vector<int>& displs,
                           const std::vector<float>& all) const;
    // Collective: every trace so far on rank 0, receiver-major (receivers x
    // recorded); empty elsewhere.
    std::vector<double> gathered_traces();
    void write_traces();
    std::string save_traces(const std::vector<double>& ordered) const;
};

} // namespace stencil
