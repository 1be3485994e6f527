// stencil-halo-bench: the halo exchange alone (pack, post, wait, unpack),
// per local size and per comm mode, with real MPI ranks: what the mini-app's
// exchange costs on your interconnect. No stencil runs. With --depths, the
// exchange of deep halos too (k*R cells of both time levels, edges and
// corners, once every k steps), so that latency and bandwidth per message
// can be read off at each depth.
//
//   mpirun -np 2 stencil-halo-bench [--sizes 64,128,256,512] [--radius 4]
//          [--depths 1,2,4] [--modes staged,gpu-aware,nccl] [--iterations 50]
//          [--procs PX,PY,PZ]
#include "binding.hpp"
#include "gpu_aware.hpp"
#include "halo_exchange.hpp"
#include "nccl_comm.hpp"
#include "stencil_version.hpp"

#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

namespace stencil {
namespace {

struct Options {
    std::vector<int> sizes{64, 128, 256, 512};
    std::vector<int> depths{1};
    std::vector<std::string> modes{"staged", "gpu-aware", "nccl"};
    std::array<int, 3> procs{0, 0, 0};
    int radius = 4, iterations = 50;
};

std::vector<std::string> split(const std::string& text) {
    std::vector<std::string> parts;
    std::stringstream stream(text);
    for (std::string part; std::getline(stream, part, ',');)
        parts.push_back(part);
    return parts;
}

int positive(const std::string& text) {
    char* end = nullptr;
    const long v = std::strtol(text.c_str(), &end, 10);
    if (text.empty() || *end || v <= 0 || v > 1 << 16)
        throw std::string("'" + text + "' is not a positive integer");
    return int(v);
}

Options parse(int argc, char** argv) {
    Options o;
    for (int a = 1; a < argc; ++a) {
        const std::string opt = argv[a];
        if (opt == "--help") throw std::string("help");
        if (opt == "--version") throw std::string("version");
        if (a + 1 >= argc) throw std::string(opt + " needs a value");
        const std::string value = argv[++a];
        if (opt == "--sizes") {
            o.sizes.clear();
            for (const auto& s : split(value))
                o.sizes.push_back(positive(s));
        } else if (opt == "--depths") {
            o.depths.clear();
            for (const auto& s : split(value)) {
                o.depths.push_back(positive(s));
                if (o.depths.back() > 8) throw std::string("--depths must be 1..8");
            }
        } else if (opt == "--modes") {
            o.modes = split(value);
            for (const auto& m : o.modes)
                if (m != "staged" && m != "gpu-aware" && m != "nccl")
                    throw std::string("unknown mode '" + m + "'");
        } else if (opt == "--radius") {
            o.radius = positive(value);
            if (o.radius > 8) throw std::string("--radius must be 1..8");
        } else if (opt == "--iterations") {
            o.iterations = positive(value);
        } else if (opt == "--procs") {
            const auto p = split(value);
            if (p.size() != 3) throw std::string("--procs needs PX,PY,PZ");
            for (int i = 0; i < 3; ++i)
                o.procs[i] = positive(p[i]);
        } else {
            throw std::string("unknown option '" + opt + "'");
        }
    }
    return o;
}

struct Timing {
    double ms;         // mean per exchange, the slowest rank's
    std::size_t bytes; // sent plus received per exchange by this rank
};

Timing time_exchange(const Decomposition& d, const Layout& layout, int radius, int depth,
                     CommMode mode, int iterations) {
    DeviceArray<float> storage(layout.allocation()), previous(layout.allocation());
    Stream halo(StreamPriority::High);
    HaloExchange<float> exchange(d, layout, radius, depth, mode, {storage.data(), previous.data()},
                                 halo);
    const FieldView<float> field = view_of(storage.data(), layout),
                           before = view_of(previous.data(), layout);
    auto once = [&] {
        exchange.begin(field, before, 0);
        exchange.pack(field, before, false);
        exchange.post();
        exchange.wait();
        exchange.unpack(field, before, false);
        halo.synchronize();
    };
    for (int w = 0; w < 5; ++w)
        once(); // warm-up: connections, NCCL channels
    MPI_CHECK(MPI_Barrier(d.cart.get()));
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < iterations; ++i)
        once();
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                    .count() /
                iterations;
    double slowest = 0;
    MPI_CHECK(MPI_Allreduce(&ms, &slowest, 1, MPI_DOUBLE, MPI_MAX, d.cart.get()));
    return {slowest, exchange.bytes_per_exchange()};
}

int run(int argc, char** argv) {
    const int rank = world_rank();
    Options o;
    try {
        o = parse(argc, argv);
    } catch (const std::string& why) {
        if (rank == 0) {
            if (why == "version")
                std::printf("stencil-halo-bench %s\n", STENCIL_VERSION_STRING);
            else if (why == "help")
                std::printf(
                    "usage: mpirun -np N stencil-halo-bench [--sizes 64,128,256,512] [--radius 4]\n"
                    "       [--depths 1,2,4] [--modes staged,gpu-aware,nccl] [--iterations 50]\n"
                    "       [--procs PX,PY,PZ] [--version]\n"
                    "Times the halo exchange of a local NxNxN box per mode and halo depth k\n"
                    "(k*R cells, exchanged once every k steps; default 1); no stencil runs.\n");
            else
                std::fprintf(stderr, "stencil-halo-bench: %s (try --help)\n", why.c_str());
        }
        return why == "help" || why == "version" ? 0 : 2;
    }
    const Binding binding = bind_to_device(MPI_COMM_WORLD);
    const GpuAwareness aware = detect_gpu_aware_mpi();
    const std::array<int, 3> procs = process_grid(world_size(), o.procs);
    if (rank == 0)
        std::printf(
            "stencil-halo-bench: %s back-end, %d ranks (%d x %d x %d), %s, R=%d, %d iterations\n"
            "gpu-aware MPI: %s (%s); NCCL/RCCL: %s\n\n%-10s %6s %5s %9s %12s %12s %10s %10s\n",
            backend_name(), world_size(), procs[0], procs[1], procs[2], binding.info.name.c_str(),
            o.radius, o.iterations, aware.supported ? "yes" : "no", aware.reason.c_str(),
            nccl_available() ? "built" : "not built", "mode", "local", "depth", "messages",
            "MiB/exch", "us/exch", "us/step", "GB/s");
    for (int n : o.sizes)
        for (int k : o.depths) {
            const std::array<int, 3> global{n * procs[0], n * procs[1], n * procs[2]};
            if (!check_split(global, procs, k * o.radius).empty()) continue;
            const Decomposition d = decompose(MPI_COMM_WORLD, global, procs);
            const Layout layout(n, n, n, k * o.radius);
            const int messages = int(plan_halo_messages(d, layout, o.radius, k).size());
            for (const std::string& m : o.modes) {
                const CommMode mode = m == "staged" ? CommMode::Staged
                                      : m == "nccl" ? CommMode::Nccl
                                                    : CommMode::GpuAware;
                if ((mode == CommMode::GpuAware && !aware.supported) ||
                    (mode == CommMode::Nccl && !nccl_available())) {
                    if (rank == 0)
                        std::printf("%-10s %6d %5d %9d %12s %12s %10s %10s\n", m.c_str(), n, k,
                                    messages, "-", "skipped", "-", "-");
                    continue;
                }
                const auto [ms, bytes] = time_exchange(d, layout, o.radius, k, mode, o.iterations);
                if (rank == 0)
                    std::printf("%-10s %6d %5d %9d %12.2f %12.1f %10.1f %10.1f\n", m.c_str(), n, k,
                                messages, double(bytes) / 1048576.0, ms * 1e3, ms * 1e3 / k,
                                ms > 0 ? double(bytes) / (ms * 1e-3) * 1e-9 : 0.0);
            }
        }
    return 0;
}

} // namespace
} // namespace stencil

int main(int argc, char** argv) {
    return stencil::run_mpi_program("stencil-halo-bench", argc, argv, stencil::run);
}
