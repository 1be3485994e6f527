#include "outputs/segy.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace stencil {
namespace {

constexpr std::size_t kText = 3200, kBinary = 400, kTraceHeader = 240;

// EBCDIC (code page 037) for printable ASCII, 0x20 to 0x7e: SEG-Y rev 1's
// textual header is EBCDIC.
constexpr unsigned char kEbcdic[95] = {
    0x40, 0x5a, 0x7f, 0x7b, 0x5b, 0x6c, 0x50, 0x7d, 0x4d, 0x5d, 0x5c, 0x4e, 0x6b, 0x60, 0x4b, 0x61,
    0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9, 0x7a, 0x5e, 0x4c, 0x7e, 0x6e, 0x6f,
    0x7c, 0xc1, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7, 0xc8, 0xc9, 0xd1, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6,
    0xd7, 0xd8, 0xd9, 0xe2, 0xe3, 0xe4, 0xe5, 0xe6, 0xe7, 0xe8, 0xe9, 0xba, 0xe0, 0xbb, 0xb0, 0x6d,
    0x79, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x91, 0x92, 0x93, 0x94, 0x95, 0x96,
    0x97, 0x98, 0x99, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8, 0xa9, 0xc0, 0x4f, 0xd0, 0xa1};

unsigned char ebcdic(char c) {
    return c >= 0x20 && c <= 0x7e ? kEbcdic[c - 0x20] : kEbcdic[0]; // else a space
}

// Big-endian two's complement, as every SEG-Y header field is.
void put16(unsigned char* at, long value) {
    const auto v = std::uint16_t(std::int16_t(value));
    at[0] = (unsigned char)(v >> 8), at[1] = (unsigned char)v;
}
void put32(unsigned char* at, long long value) {
    const auto v = std::uint32_t(std::int32_t(value));
    for (int b = 0; b < 4; ++b)
        at[b] = (unsigned char)(v >> (24 - 8 * b));
}
void put_float(unsigned char* at, float value) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, &value, 4);
    put32(at, std::int32_t(bits));
}

// The scalar of bytes 69-72 (a negative one divides): centimetres where
// the farthest coordinate fits a four-byte field in them, else coarser.
int coordinate_scalar(const SegyGather& g) {
    int far = 0;
    for (const auto& cell : g.receivers)
        far = std::max({far, cell[0], cell[1], cell[2]});
    far = std::max({far, g.source[0], g.source[1], g.source[2]});
    const double metres = far * g.spacing;
    for (const int scalar : {-100, -10, 1, 10, 100, 1000})
        if (metres * (scalar < 0 ? -scalar : 1.0 / scalar) < 2147483647.0) return scalar;
    return 10000;
}

long long scaled(double metres, int scalar) {
    return std::llround(scalar < 0 ? metres * -scalar : metres / scalar);
}

// 40 lines of 80 characters, "C 1 ..." to "C40 END TEXTUAL HEADER".
void write_text(unsigned char* at, const std::vector<std::string>& about) {
    for (int line = 0; line < 40; ++line) {
        char head[8];
        std::snprintf(head, sizeof head, "C%2d ", line + 1);
        std::string text = head;
        if (line == 38)
            text += "SEG Y REV1";
        else if (line == 39)
            text += "END TEXTUAL HEADER";
        else if (line < int(about.size()))
            text += about[line];
        text.resize(80, ' ');
        for (int c = 0; c < 80; ++c)
            at[line * 80 + c] = ebcdic(text[c]);
    }
}

void write_binary(unsigned char* at, const SegyGather& g) {
    const int us = segy_interval_us(g.dt), samples = g.recorded + 1;
    const int traces = int(g.receivers.size());
    put32(at + 0, 1);                                 // job
    put32(at + 4, 1);                                 // line
    put32(at + 8, 1);                                 // reel
    put16(at + 12, traces <= 32767 ? traces : 0);     // traces per ensemble (0: too many)
    put16(at + 16, us), put16(at + 18, us);           // sample interval, and as recorded
    put16(at + 20, samples), put16(at + 22, samples); // samples, and as recorded
    put16(at + 24, 5);                                // IEEE float32
    put16(at + 26, 1);                                // ensemble fold
    put16(at + 28, 1);                                // traces as recorded, not sorted
    put16(at + 54, 1);                                // metres
    put16(at + 300, 0x0100);                          // SEG-Y revision 1.0
    put16(at + 302, 1);                               // every trace the same length
}

void write_trace_header(unsigned char* at, const SegyGather& g, int n, int scalar) {
    const auto& r = g.receivers[std::size_t(n)];
    const double h = g.spacing;
    const double dx = (r[0] - g.source[0]) * h, dy = (r[1] - g.source[1]) * h,
                 dz = (r[2] - g.source[2]) * h;
    put32(at + 0, n + 1), put32(at + 4, n + 1); // in the line, in the file
    put32(at + 8, 1), put32(at + 12, n + 1);    // field record, trace in it
    put32(at + 16, 1), put32(at + 20, 1);       // source point, ensemble
    put32(at + 24, n + 1);                      // trace in the ensemble
    put16(at + 28, 1), put16(at + 34, 1);       // seismic data, production
    put32(at + 36, std::llround(std::sqrt(dx * dx + dy * dy + dz * dz))); // offset, metres
    put32(at + 40, scaled(-r[2] * h, scalar));       // receiver elevation: minus its depth
    put32(at + 48, scaled(g.source[2] * h, scalar)); // source depth
    put16(at + 68, scalar), put16(at + 70, scalar);  // depths' and coordinates' scalars
    put32(at + 72, scaled(g.source[0] * h, scalar)); // source x
    put32(at + 76, scaled(g.source[1] * h, scalar)); // source y
    put32(at + 80, scaled(r[0] * h, scalar));        // receiver x
    put32(at + 84, scaled(r[1] * h, scalar));        // receiver y
    put16(at + 88, 1);                               // coordinates are lengths
    put16(at + 114, g.recorded + 1);                 // samples
    put16(at + 116, segy_interval_us(g.dt));         // microseconds
}

} // namespace

int segy_interval_us(double dt) {
    return int(std::llround(dt * 1e6));
}

std::string segy_problem(int steps, double dt) {
    const long long us = std::min(std::llround(dt * 1e6), 1LL << 30);
    if (steps + 1 > kSegyMaxSamples)
        return std::to_string(steps) + " steps and t = 0 are more samples than SEG-Y rev 1 holds " +
               "in a trace (" + std::to_string(kSegyMaxSamples) + ")";
    if (us < 1 || us > kSegyMaxIntervalUs)
        return "a step of " + std::to_string(us) +
               " microseconds is outside SEG-Y rev 1's sample intervals (1 to " +
               std::to_string(kSegyMaxIntervalUs) + ")";
    return {};
}

double segy_drift_ms(int steps, double dt) {
    return std::abs(segy_interval_us(dt) * 1e-6 - dt) * steps * 1e3;
}

std::vector<unsigned char> segy_file(const SegyGather& g, const std::vector<double>& traces) {
    const std::size_t count = g.receivers.size(), samples = std::size_t(g.recorded) + 1;
    const std::size_t trace_bytes = kTraceHeader + 4 * samples;
    std::vector<unsigned char> bytes(kText + kBinary + count * trace_bytes, 0);
    write_text(bytes.data(), g.about);
    write_binary(bytes.data() + kText, g);
    const int scalar = coordinate_scalar(g);
    for (std::size_t n = 0; n < count; ++n) {
        unsigned char* at = bytes.data() + kText + kBinary + n * trace_bytes;
        write_trace_header(at, g, int(n), scalar);
        // Sample 0 (t = 0) stays zero: the field at rest.
        for (std::size_t t = 1; t < samples; ++t)
            put_float(at + kTraceHeader + 4 * t, float(traces[n * g.recorded + t - 1]));
    }
    return bytes;
}

} // namespace stencil
