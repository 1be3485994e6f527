// The floor of the wave update on one GPU (issue 58): what a 512^3 step can
// reach on this device, measured beside a copy in the same process, with
// kernels written another way than the mini-app's.
//
//   copy16    n^3 values read and written once, a 16-byte vector a thread
//             (the bench's yardstick); copy: the same, a value a thread
//   stream    the update's compulsory traffic and nothing else: p, p_prev
//             and the velocity term read, p_prev written, cell by cell
//             (no neighbour): the ceiling of any wave update; stream16:
//             the same in 16-byte vectors
//   naive     the order-2R update, one cell a thread, every neighbour read
//             from memory (the caches do the reuse)
//   column    the classic 2.5D walk: one (x, y) column a thread, 2R+1
//             planes of p in registers, one shared tile a plane with its
//             apron, block BX x BY, each block walking Z planes; one cell a
//             thread, so many warps an SM and few registers a thread
//
// The mini-app's kernel keeps four floats (or two doubles) and two rows a
// thread, so few warps an SM. This probe says whether a design with many
// warps reaches further. Every kernel's result is checked against naive's.
// build: nvcc -O3 -std=c++17 -arch=sm_90 floor.cu -o floor
// run:   ./floor [n=512] [seconds per timing=1] [rounds=2] [streams: the copies and
//        streams alone]
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define CK(x)                                                                                      \
    do {                                                                                           \
        cudaError_t e_ = (x);                                                                      \
        if (e_ != cudaSuccess) {                                                                   \
            std::fprintf(stderr, "CUDA %s at line %d\n", cudaGetErrorString(e_), __LINE__);        \
            std::exit(1);                                                                          \
        }                                                                                          \
    } while (0)

constexpr int kOffsetX = 32; // x halo: the interior starts 128 bytes in

// The box: n^3 cells, halo R in y and z, kOffsetX in x.
struct Grid {
    int n, R;
    long long px, py; // pitches
    __host__ __device__ long long at(int x, int y, int z) const {
        return ((long long)(z + R) * py + (y + R)) * px + (x + kOffsetX);
    }
    long long total() const { return px * py * (n + 2LL * R); }
};

template <class T>
struct Coef {
    T c[9];
};

// p_prev <- 2 p - p_prev + vel * L(p), the sum taken the same way in every
// kernel: centre, then for k = 1..R the x, y and z pairs.
template <int R, class T>
__device__ __forceinline__ T update(T centre, T lap_rest, T prev, T vel, const Coef<T>& c) {
    const T lap = c.c[0] * centre + lap_rest;
    return T(2) * centre - prev + vel * lap;
}

template <class T>
__global__ void copy_kernel(const T* __restrict__ in, T* __restrict__ out, long long n) {
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
         i += (long long)gridDim.x * blockDim.x)
        out[i] = in[i];
}

template <class T>
__global__ void stream_kernel(const T* __restrict__ p, T* __restrict__ prev,
                              const T* __restrict__ vel, Grid g, Coef<T> c) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    const int z = blockIdx.z;
    if (x >= g.n || y >= g.n) return;
    const long long i = g.at(x, y, z);
    prev[i] = update<1, T>(p[i], T(0), prev[i], vel[i], c);
}

// 16-byte vectors: the bench's copy and the update's traffic as wide loads.
template <class T>
struct Wide;
template <>
struct Wide<float> {
    using type = float4;
    static constexpr int lanes = 4;
};
template <>
struct Wide<double> {
    using type = double2;
    static constexpr int lanes = 2;
};

template <class T>
__global__ void copy_wide_kernel(const T* __restrict__ in, T* __restrict__ out, long long groups) {
    using V = typename Wide<T>::type;
    const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (i < groups) reinterpret_cast<V*>(out)[i] = reinterpret_cast<const V*>(in)[i];
}

template <class T>
__global__ void stream_wide_kernel(const T* __restrict__ p, T* __restrict__ prev,
                                   const T* __restrict__ vel, Grid g, Coef<T> c) {
    using V = typename Wide<T>::type;
    constexpr int L = Wide<T>::lanes;
    const int x = L * (blockIdx.x * blockDim.x + threadIdx.x),
              y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= g.n || y >= g.n) return;
    const long long i = g.at(x, y, blockIdx.z);
    V a = *reinterpret_cast<const V*>(p + i), b = *reinterpret_cast<const V*>(prev + i);
    const V v = *reinterpret_cast<const V*>(vel + i);
    T* pa = reinterpret_cast<T*>(&a);
    T* pb = reinterpret_cast<T*>(&b);
    const T* pv = reinterpret_cast<const T*>(&v);
#pragma unroll
    for (int q = 0; q < L; ++q)
        pb[q] = update<1, T>(pa[q], T(0), pb[q], pv[q], c);
    *reinterpret_cast<V*>(prev + i) = b;
}

template <int R, class T>
__global__ void naive_kernel(const T* __restrict__ p, T* __restrict__ prev,
                             const T* __restrict__ vel, Grid g, Coef<T> c) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    const int z = blockIdx.z;
    if (x >= g.n || y >= g.n) return;
    const long long i = g.at(x, y, z), sy = g.px, sz = g.px * g.py;
    T rest = T(0);
#pragma unroll
    for (int k = 1; k <= R; ++k)
        rest += c.c[k] * ((p[i - k] + p[i + k]) + (p[i - k * sy] + p[i + k * sy]) +
                          (p[i - k * sz] + p[i + k * sz]));
    prev[i] = update<R, T>(p[i], rest, prev[i], vel[i], c);
}

template <int R, class T, int BX, int BY>
__global__ void __launch_bounds__(BX* BY)
    column_kernel(const T* __restrict__ p, T* __restrict__ prev, const T* __restrict__ vel, Grid g,
                  Coef<T> c, int Z) {
    __shared__ T tile[BY + 2 * R][BX + 2 * R];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int x = blockIdx.x * BX + tx, y = blockIdx.y * BY + ty;
    const int z0 = blockIdx.z * Z, z1 = min(z0 + Z, g.n);
    const bool inside = x < g.n && y < g.n;
    const long long sz = g.px * g.py;
    // The column's planes z-R .. z+R; q[R] is the centre.
    T q[2 * R + 1];
    long long i = g.at(min(x, g.n - 1), min(y, g.n - 1), z0);
#pragma unroll
    for (int k = 0; k < 2 * R; ++k)
        q[k] = p[i + (k - R) * sz];
    for (int z = z0; z < z1; ++z, i += sz) {
        q[2 * R] = p[i + R * sz];
        const T p_prev = prev[i], v = vel[i];
        __syncthreads(); // the tile's last plane has been read by every thread
        tile[ty + R][tx + R] = q[R];
        if (tx < R) {
            tile[ty + R][tx] = p[i - R];
            tile[ty + R][tx + BX + R] = p[i + BX];
        }
        if (ty < R) {
            tile[ty][tx + R] = p[i - R * g.px];
            tile[ty + BY + R][tx + R] = p[i + BY * g.px];
        }
        __syncthreads();
        T rest = T(0);
#pragma unroll
        for (int k = 1; k <= R; ++k)
            rest += c.c[k] *
                    ((tile[ty + R][tx + R - k] + tile[ty + R][tx + R + k]) +
                     (tile[ty + R - k][tx + R] + tile[ty + R + k][tx + R]) + (q[R - k] + q[R + k]));
        if (inside) prev[i] = update<R, T>(q[R], rest, p_prev, v, c);
#pragma unroll
        for (int k = 0; k < 2 * R; ++k)
            q[k] = q[k + 1];
    }
}

template <class T>
struct Fields {
    T *p, *prev, *vel, *prev0, *ref, *a, *b;
};

template <class T>
__global__ void fill(T* f, long long n, unsigned seed, T scale) {
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
         i += (long long)gridDim.x * blockDim.x) {
        unsigned h = (unsigned)i * 2654435761u ^ seed;
        h ^= h >> 13, h *= 0x5bd1e995u, h ^= h >> 15;
        f[i] = scale * (T(h & 0xffff) / T(65535) - T(0.5));
    }
}

// Times `launch` over at least `seconds`; returns ms a launch.
template <class F>
double time_ms(F launch, double seconds) {
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    launch(); // warm-up
    CK(cudaDeviceSynchronize());
    int reps = 1;
    float ms = 0;
    for (;;) {
        CK(cudaEventRecord(a));
        for (int r = 0; r < reps; ++r)
            launch();
        CK(cudaEventRecord(b));
        CK(cudaEventSynchronize(b));
        CK(cudaEventElapsedTime(&ms, a, b));
        if (ms >= 1000 * seconds) break;
        reps = std::max(reps * 2, int(reps * 1.2 * 1000 * seconds / std::max(ms, 0.01f)));
    }
    CK(cudaGetLastError());
    CK(cudaEventDestroy(a));
    CK(cudaEventDestroy(b));
    return ms / reps;
}

struct Row {
    std::string name;
    double ms, bytes;
};

template <class T>
double max_difference(const T* a, const T* b, long long n) {
    std::vector<T> ha(n), hb(n);
    CK(cudaMemcpy(ha.data(), a, n * sizeof(T), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hb.data(), b, n * sizeof(T), cudaMemcpyDeviceToHost));
    double worst = 0;
    for (long long i = 0; i < n; ++i)
        worst = std::max(worst, std::fabs(double(ha[i]) - double(hb[i])));
    return worst;
}

template <int R, class T, int BX, int BY>
void add_column(std::vector<Row>& rows, const Fields<T>& f, const Grid& g, const Coef<T>& c, int Z,
                double seconds, long long total, double wave_bytes, const char* prec, bool check) {
    const dim3 block(BX, BY), grid((g.n + BX - 1) / BX, (g.n + BY - 1) / BY, (g.n + Z - 1) / Z);
    auto launch = [&] {
        column_kernel<R, T, BX, BY><<<grid, block>>>(f.p, f.prev, f.vel, g, c, Z);
    };
    char name[96];
    std::snprintf(name, sizeof name, "column R%d %s %dx%d Z%d", R, prec, BX, BY, Z);
    if (check) {
        CK(cudaMemcpy(f.prev, f.prev0, total * sizeof(T), cudaMemcpyDeviceToDevice));
        launch();
        CK(cudaDeviceSynchronize());
        const double diff = max_difference(f.prev, f.ref, total);
        std::printf("check %s: largest difference from naive %g%s\n", name, diff,
                    diff > 1e-4 ? " WRONG" : "");
    }
    rows.push_back({name, time_ms(launch, seconds), wave_bytes});
}

// One line a kernel, each against the round's first row (copy16).
void print_rows(const std::vector<Row>& rows, const char* prec, int R, int round, long long cells) {
    const double copy_gbs = rows[0].bytes / rows[0].ms * 1e-6;
    for (const Row& r : rows) {
        const double gbs = r.bytes / r.ms * 1e-6;
        std::printf("%-6s R%d round %d  %-28s %8.3f ms %7.0f GB/s %5.1f%% of copy %7.1f Gcell/s\n",
                    prec, R, round, r.name.c_str(), r.ms, gbs, 100 * gbs / copy_gbs,
                    cells / r.ms * 1e-6);
    }
    std::fflush(stdout);
}

template <int R, class T>
void probe(const char* prec, int n, double seconds, int rounds, bool streams_only) {
    Grid g{n, R, n + 2LL * kOffsetX, n + 2LL * R};
    const long long total = g.total(), cells = (long long)n * n * n;
    Fields<T> f;
    T** padded[] = {&f.p, &f.prev, &f.vel, &f.prev0, &f.ref};
    for (T** q : padded)
        CK(cudaMalloc(q, total * sizeof(T)));
    CK(cudaMalloc(&f.a, cells * sizeof(T)));
    CK(cudaMalloc(&f.b, cells * sizeof(T)));
    fill<<<1024, 256>>>(f.p, total, 1u, T(1));
    fill<<<1024, 256>>>(f.prev0, total, 2u, T(1));
    fill<<<1024, 256>>>(f.vel, total, 3u, T(0.2));
    fill<<<1024, 256>>>(f.a, cells, 4u, T(1));
    Coef<T> c{};
    c.c[0] = T(-3) * T(2.8);
    for (int k = 1; k <= R; ++k)
        c.c[k] = T(1) / T(k * k);
    const dim3 b(32, 8), grid((n + 31) / 32, (n + 7) / 8, n);
    auto naive = [&] { naive_kernel<R, T><<<grid, b>>>(f.p, f.prev, f.vel, g, c); };
    CK(cudaMemcpy(f.prev, f.prev0, total * sizeof(T), cudaMemcpyDeviceToDevice));
    naive();
    CK(cudaMemcpy(f.ref, f.prev, total * sizeof(T), cudaMemcpyDeviceToDevice));
    const double wave_bytes = 4.0 * cells * sizeof(T);
    for (int round = 1; round <= rounds; ++round) {
        std::vector<Row> rows;
        constexpr int L = Wide<T>::lanes;
        const long long groups = cells / L;
        rows.push_back(
            {"copy16",
             time_ms([&] { copy_wide_kernel<<<(groups + 255) / 256, 256>>>(f.a, f.b, groups); },
                     seconds),
             2.0 * cells * sizeof(T)});
        rows.push_back({"copy",
                        time_ms([&] { copy_kernel<<<132 * 16, 256>>>(f.a, f.b, cells); }, seconds),
                        2.0 * cells * sizeof(T)});
        const dim3 wide_grid((n / L + 31) / 32, (n + 7) / 8, n);
        rows.push_back(
            {"stream16",
             time_ms([&] { stream_wide_kernel<T><<<wide_grid, b>>>(f.p, f.prev, f.vel, g, c); },
                     seconds),
             wave_bytes});
        rows.push_back(
            {"stream",
             time_ms([&] { stream_kernel<T><<<grid, b>>>(f.p, f.prev, f.vel, g, c); }, seconds),
             wave_bytes});
        for (int Z : {64, 128, 512}) {
            if (streams_only) break;
            if (Z == 64) rows.push_back({"naive 32x8", time_ms(naive, seconds), wave_bytes});
            add_column<R, T, 32, 8>(rows, f, g, c, Z, seconds, total, wave_bytes, prec, round == 1);
            add_column<R, T, 32, 16>(rows, f, g, c, Z, seconds, total, wave_bytes, prec,
                                     round == 1);
            add_column<R, T, 64, 8>(rows, f, g, c, Z, seconds, total, wave_bytes, prec, round == 1);
        }
        print_rows(rows, prec, R, round, cells);
    }
    T* owned[] = {f.p, f.prev, f.vel, f.prev0, f.ref, f.a, f.b};
    for (T* q : owned)
        CK(cudaFree(q));
}

int main(int argc, char** argv) {
    const int n = argc > 1 ? std::atoi(argv[1]) : 512;
    const double seconds = argc > 2 ? std::atof(argv[2]) : 1.0;
    const int rounds = argc > 3 ? std::atoi(argv[3]) : 2;
    const bool streams_only = argc > 4 && std::string(argv[4]) == "streams";
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    std::printf("device: %s, %d SMs, n = %d, %.1f s a timing, %d rounds\n", prop.name,
                prop.multiProcessorCount, n, seconds, rounds);
    probe<1, float>("fp32", n, seconds, rounds, streams_only);
    probe<4, float>("fp32", n, seconds, rounds, streams_only);
    probe<8, float>("fp32", n, seconds, rounds, streams_only);
    probe<4, double>("fp64", n, seconds, rounds, streams_only);
    return 0;
}
