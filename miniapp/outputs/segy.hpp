// Receiver traces as SEG-Y, the file the field's tools read (segyio,
// Seismic Unix, Madagascar, OpendTect): revision 1, one file for the run's
// one shot gather. An EBCDIC textual header says what the run was; the
// binary header gives the sample interval (whole microseconds), the sample
// count and IEEE float32 samples (format code 5), big-endian as the
// standard has them; each trace header gives the source's and the
// receiver's coordinates in metres, scaled (bytes 69-72), and the
// receiver's and source's depths. Sample 0 is t = 0, the field at rest
// (every run starts from rest), so sample k is t = k dt, as readers count:
// the samples after it are traces.bin's, narrowed to float32 in an FP64
// run.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace stencil {

// SEG-Y rev 1's header fields are two-byte two's complement: at most this
// many samples a trace, and microseconds a sample.
constexpr int kSegyMaxSamples = 32767;
constexpr int kSegyMaxIntervalUs = 32767;

// One gather as the file describes it.
struct SegyGather {
    std::vector<std::array<int, 3>> receivers; // cells, in the order of the traces
    std::array<int, 3> source{};               // cell
    double spacing = 0;                        // metres
    double dt = 0;                             // seconds
    int recorded = 0;                          // samples recorded, one a step
    std::vector<std::string> about;            // lines for the textual header (ASCII)
};

// The sample interval in whole microseconds, as the headers hold it.
int segy_interval_us(double dt);

// "" or, before step 1, why `steps` steps of `dt` cannot be a SEG-Y rev 1
// file (too many samples, or a sample interval outside 1..32767 us), as
// the end of a line that names the option.
std::string segy_problem(int steps, double dt);

// How many milliseconds the whole-microsecond interval drifts from the
// run's dt by the last of `steps` samples (a warning where it exceeds half
// a step).
double segy_drift_ms(int steps, double dt);

// The file's bytes: headers and `traces` (receiver-major, `recorded`
// samples each, widened to double), each trace led by a zero for t = 0.
std::vector<unsigned char> segy_file(const SegyGather& gather, const std::vector<double>& traces);

} // namespace stencil
