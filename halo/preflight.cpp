#include "preflight.hpp"

#include "memory.hpp"

#include <chrono>
#include <cstdio>
#include <vector>

namespace stencil {
namespace {

constexpr int kRoundTrips = 10;

// The value at `n` of the pattern rank `rank` sends on face `face`: every
// sender, face and position differ, so a mixed-up or short message shows.
float pattern(int rank, int face, std::size_t n) {
    return float(rank * 1000 + face * 100) + float(n % 97) * 0.5f;
}

struct Trip {
    bool intact = true;
    double us = 0; // mean microseconds per round trip, all faces together
};

// Round trips through `send`/`recv` (device or pinned); `stage` copies
// between the device buffers and them when they are pinned.
Trip round_trips(const Decomposition& d, std::size_t floats, bool staged) {
    std::vector<int> neighbours;
    for (int a = 0; a < 3; ++a)
        for (Side s : {Low, High})
            if (d.has_neighbour(a, s)) neighbours.push_back(d.neighbour[a][s]);
    const std::size_t nf = neighbours.size();
    std::vector<DeviceArray<float>> out, in;
    std::vector<PinnedArray<float>> out_host, in_host;
    std::vector<float> expected(floats);
    for (std::size_t f = 0; f < nf; ++f) {
        out.emplace_back(floats);
        in.emplace_back(floats);
        for (std::size_t n = 0; n < floats; ++n)
            expected[n] = pattern(d.rank, int(f), n);
        copy_to_device(out.back(), expected.data());
        if (staged) out_host.emplace_back(floats), in_host.emplace_back(floats);
    }
    Trip trip;
    std::vector<MPI_Request> requests(2 * nf);
    auto exchange = [&](std::vector<DeviceArray<float>>& src,
                        std::vector<DeviceArray<float>>& dst) {
        for (std::size_t f = 0; f < nf; ++f) {
            float* s = staged ? out_host[f].data() : src[f].data();
            float* r = staged ? in_host[f].data() : dst[f].data();
            if (staged) copy(s, src[f].data(), floats * sizeof(float));
            MPI_CHECK(MPI_Irecv(r, int(floats), MPI_FLOAT, neighbours[f], 7, d.cart.get(),
                                &requests[2 * f]));
            MPI_CHECK(MPI_Isend(s, int(floats), MPI_FLOAT, neighbours[f], 7, d.cart.get(),
                                &requests[2 * f + 1]));
        }
        MPI_CHECK(MPI_Waitall(int(requests.size()), requests.data(), MPI_STATUSES_IGNORE));
        if (staged)
            for (std::size_t f = 0; f < nf; ++f)
                copy(dst[f].data(), in_host[f].data(), floats * sizeof(float));
    };
    std::vector<DeviceArray<float>> back;
    for (std::size_t f = 0; f < nf; ++f)
        back.emplace_back(floats);
    MPI_CHECK(MPI_Barrier(d.cart.get()));
    const auto start = std::chrono::steady_clock::now();
    for (int t = 0; t < kRoundTrips; ++t) {
        exchange(out, in);  // there...
        exchange(in, back); // ...and back: each rank returns what it received
    }
    trip.us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
                  .count() /
              kRoundTrips;
    std::vector<float> got(floats);
    for (std::size_t f = 0; f < nf; ++f) {
        copy_to_host(got.data(), back[f]);
        for (std::size_t n = 0; n < floats; ++n)
            if (got[n] != pattern(d.rank, int(f), n)) {
                trip.intact = false;
                break;
            }
    }
    return trip;
}

} // namespace

PreflightResult run_preflight(const Decomposition& d, const GpuAwareness& aware,
                              std::size_t floats) {
    PreflightResult result;
    struct Row {
        const char* path;
        bool staged, ran;
        Trip trip;
    };
    std::vector<Row> rows = {{"gpu-aware (device buffers)", false, aware.supported, {}},
                             {"staged (pinned host)", true, true, {}}};
    for (Row& row : rows)
        if (row.ran) row.trip = round_trips(d, floats, row.staged);
    char line[200];
    std::string text = "preflight: a " + std::to_string(floats * 4) +
                       "-byte message to each neighbour and back, " + std::to_string(kRoundTrips) +
                       " times\n";
    for (const Row& row : rows) {
        int intact = row.trip.intact ? 1 : 0, all_intact = 0;
        double us = row.trip.us, slowest = 0;
        MPI_CHECK(MPI_Allreduce(&intact, &all_intact, 1, MPI_INT, MPI_MIN, d.cart.get()));
        MPI_CHECK(MPI_Allreduce(&us, &slowest, 1, MPI_DOUBLE, MPI_MAX, d.cart.get()));
        if (!row.ran) {
            std::snprintf(line, sizeof line, "  %-28s skipped: %s\n", row.path,
                          aware.reason.c_str());
        } else {
            result.ok = result.ok && all_intact;
            std::snprintf(line, sizeof line, "  %-28s %s, %.1f us per round trip (slowest rank)\n",
                          row.path, all_intact ? "contents intact" : "CONTENTS WRONG", slowest);
        }
        text += line;
    }
    if (d.rank == 0) result.report = text;
    return result;
}

} // namespace stencil
