// Probe: which part of the mini-app's cells body makes a 64^3 step twice the
// floor's (../../../../shared data: smallbox.cu, 3.2 us against 6.1).
// Every kernel runs S steps as one replayed graph, as the floor probe does.
//   floor-own   the floor's kernel (one cell a thread, 32x4x2), its own
//               padded layout (n + 2R a line)
//   floor-ours  the same kernel on the mini-app's Layout (lines of 64k)
//   lean4       four cells a thread, float4 loads, written plainly, on
//               the mini-app's Layout, a 16 x 16 block
//   lean4c      lean4 summed in the mini-app's order, with its leapfrog
//   body        the mini-app's slab_cells (kernels/slab_cells.hpp), no
//               source, no sinks, sponge off; blocks and windows as named
//   body-64reg  body with at most 64 registers a thread
//   body-app    the same with the cell_box_kernel's null source and sink
//               tables and its step count: the mini-app's kernel
// Build from the repository root:
//   nvcc -O3 -arch=sm_90 -std=c++17 -I. -Ikernels -DSTENCIL_BACKEND_CUDA \
//     docs/data/small-box-body-2026-12-06/bodyprobe.cu -o bodyprobe
// Bits: the floor kernels agree with each other, the body kernels with
// each other (their sums differ in order from the floor's).
#include "kernels/fused_walk.hpp"
#include "kernels/slab_cells.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>

#define CK(x)                                                                                      \
    do {                                                                                           \
        cudaError_t e = (x);                                                                       \
        if (e != cudaSuccess) {                                                                    \
            printf("CUDA %s at %d\n", cudaGetErrorString(e), __LINE__);                            \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)
using namespace stencil;
using namespace stencil::detail;
constexpr int R = 4;
__constant__ float cc[R + 1];

struct Flat {
    float* p;
    float* q;
    float* v;
    long line, slice;
    int n;
};
__global__ void floor_cell(Flat f, int h) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y,
              k = blockIdx.z * blockDim.z + threadIdx.z;
    if (i >= f.n || j >= f.n || k >= f.n) return;
    const float* __restrict__ p = f.p;
    float* __restrict__ q = f.q;
    const long c = (long)(k + h) * f.slice + (long)(j + h) * f.line + (i + h);
    float lap = 3.f * cc[0] * p[c];
#pragma unroll
    for (int r = 1; r <= R; ++r)
        lap += cc[r] * (p[c - r] + p[c + r] + p[c - r * f.line] + p[c + r * f.line] +
                        p[c - r * f.slice] + p[c + r * f.slice]);
    q[c] = 2.f * p[c] - q[c] + f.v[c] * lap;
}
__global__ void lean4(Flat f, int h) {
    const int i = 4 * (blockIdx.x * blockDim.x + threadIdx.x),
              j = blockIdx.y * blockDim.y + threadIdx.y, k = blockIdx.z;
    if (i >= f.n || j >= f.n) return;
    const float* __restrict__ p = f.p;
    float* __restrict__ q = f.q;
    const long c = (long)(k + h) * f.slice + (long)(j + h) * f.line + (i + h);
    auto ld = [](const float* a) { return *reinterpret_cast<const float4*>(a); };
    const float4 m = ld(p + c), w = ld(p + c - 4), e = ld(p + c + 4);
    const float xs[12] = {w.x, w.y, w.z, w.w, m.x, m.y, m.z, m.w, e.x, e.y, e.z, e.w};
    float lap[4];
#pragma unroll
    for (int l = 0; l < 4; ++l)
        lap[l] = 3.f * cc[0] * xs[4 + l];
#pragma unroll
    for (int r = 1; r <= R; ++r) {
        const float4 a = ld(p + c - r * f.line), b = ld(p + c + r * f.line),
                     d = ld(p + c - r * f.slice), g = ld(p + c + r * f.slice);
        const float ya[4] = {a.x + b.x + d.x + g.x, a.y + b.y + d.y + g.y, a.z + b.z + d.z + g.z,
                             a.w + b.w + d.w + g.w};
#pragma unroll
        for (int l = 0; l < 4; ++l)
            lap[l] += cc[r] * (xs[4 + l - r] + xs[4 + l + r] + ya[l]);
    }
    const float4 old = ld(q + c), vv = ld(f.v + c);
    float4 out;
    out.x = 2.f * m.x - old.x + vv.x * lap[0];
    out.y = 2.f * m.y - old.y + vv.y * lap[1];
    out.z = 2.f * m.z - old.z + vv.z * lap[2];
    out.w = 2.f * m.w - old.w + vv.w * lap[3];
    *reinterpret_cast<float4*>(q + c) = out;
}
// lean4 in the mini-app's canonical order (cell_math.hpp): the centre, then
// for r = 1..R the x, y and z pairs, each pair with its axis' weight. Its
// bits should be the body's.
__global__ void lean4c(Flat f, int h, Coefficients<R, float> co) {
    const int i = 4 * (blockIdx.x * blockDim.x + threadIdx.x),
              j = blockIdx.y * blockDim.y + threadIdx.y, k = blockIdx.z;
    if (i >= f.n || j >= f.n) return;
    const float* __restrict__ p = f.p;
    float* __restrict__ q = f.q;
    const long c = (long)(k + h) * f.slice + (long)(j + h) * f.line + (i + h);
    auto ld = [](const float* a) { return *reinterpret_cast<const float4*>(a); };
    const float4 m = ld(p + c), w = ld(p + c - 4), e = ld(p + c + 4);
    const float xs[12] = {w.x, w.y, w.z, w.w, m.x, m.y, m.z, m.w, e.x, e.y, e.z, e.w};
    float lap[4];
#pragma unroll
    for (int l = 0; l < 4; ++l)
        lap[l] = co.centre * xs[4 + l];
#pragma unroll
    for (int r = 1; r <= R; ++r) {
        const float4 a = ld(p + c - r * f.line), b = ld(p + c + r * f.line),
                     d = ld(p + c - r * f.slice), g = ld(p + c + r * f.slice);
        const float ys[4][2] = {{a.x, b.x}, {a.y, b.y}, {a.z, b.z}, {a.w, b.w}},
                    zs[4][2] = {{d.x, g.x}, {d.y, g.y}, {d.z, g.z}, {d.w, g.w}};
#pragma unroll
        for (int l = 0; l < 4; ++l) {
            lap[l] = add_pair(lap[l], co.x[r], xs[4 + l - r], xs[4 + l + r]);
            lap[l] = add_pair(lap[l], co.y[r], ys[l][0], ys[l][1]);
            lap[l] = add_pair(lap[l], co.z[r], zs[l][0], zs[l][1]);
        }
    }
    const float4 old = ld(q + c), vv = ld(f.v + c);
    const float mm[4] = {m.x, m.y, m.z, m.w}, oo[4] = {old.x, old.y, old.z, old.w},
                v4[4] = {vv.x, vv.y, vv.z, vv.w};
    float o[4];
#pragma unroll
    for (int l = 0; l < 4; ++l)
        o[l] = leapfrog(mm[l], oo[l], v4[l], lap[l], 0.f);
    *reinterpret_cast<float4*>(q + c) = make_float4(o[0], o[1], o[2], o[3]);
}
struct NoSinks {
    __device__ void copy(FieldView<float>, const Box&) const {}
};
template <bool App, int Cap>
__global__ void __maxnreg__(Cap)
    body(FieldView<const float> p, FieldView<float> out, FieldView<const float> vel, Box box,
         XGroups groups, int window, Coefficients<R, float> c, Sponge sponge,
         const FaceSinks<float>* sinks, SourceInLaunch<float> source) {
    if constexpr (App) count_source_step(source);
    const int i = groups.first + 4 * int(blockIdx.x * blockDim.x + threadIdx.x);
    const int j = box.y0 + int(blockIdx.y * blockDim.y + threadIdx.y);
    if (i >= box.x1 || j >= box.y1) return;
    const int k0 = box.z0 + int(blockIdx.z) * window;
    if constexpr (App)
        slab_cells<R, float>(p, out, vel, box, c, sponge, i, j, k0, min(k0 + window, box.z1),
                             SinksAt<float>{sinks}, SourceAt<float>{source});
    else
        slab_cells<R, float>(p, out, vel, box, c, sponge, i, j, k0, min(k0 + window, box.z1),
                             NoSinks{}, NoSourceInUpdate<float>{});
}

int main(int argc, char** argv) {
    const int S = argc > 1 ? atoi(argv[1]) : 3000;
    const float h[R + 1] = {-205.f / 72.f, 8.f / 5.f, -1.f / 5.f, 8.f / 315.f, -1.f / 560.f};
    CK(cudaMemcpyToSymbol(cc, h, sizeof h));
    Coefficients<R, float> co{};
    for (int r = 0; r <= R; ++r)
        co.x[r] = co.y[r] = co.z[r] = h[r];
    co.centre = 3.f * h[0];
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    printf("%s, %d SMs; R=4 FP32; %d steps a graph\n", prop.name, prop.multiProcessorCount, S);
    cudaStream_t st;
    CK(cudaStreamCreate(&st));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    for (const int n : {64, 96, 128}) {
        const Layout ours(n, n, n, R);
        const long own_line = n + 2 * R, own_slice = own_line * own_line,
                   own_total = own_slice * own_line;
        const size_t alloc = std::max<size_t>(ours.allocation(), own_total + 64);
        float *p, *q, *v;
        CK(cudaMalloc(&p, alloc * 4));
        CK(cudaMalloc(&q, alloc * 4));
        CK(cudaMalloc(&v, alloc * 4));
        std::vector<float> init(alloc, 0.f), vel(alloc, 1e-4f), got(alloc);
        auto fill = [&](long line, long slice, long front) {
            std::fill(init.begin(), init.end(), 0.f);
            for (int k = 0; k < n; ++k)
                for (int j = 0; j < n; ++j)
                    for (int i = 0; i < n; ++i)
                        init[front + (k + R) * slice + (j + R) * line + i + R] =
                            1e-3f * ((i * 7 + j * 13 + k * 29) % 17);
        };
        CK(cudaMemcpy(v, vel.data(), alloc * 4, cudaMemcpyHostToDevice));
        // Interior values as a vector in (i,j,k) order, for comparing layouts.
        auto interior = [&](float* d, long line, long slice, long front) {
            CK(cudaMemcpy(got.data(), d, alloc * 4, cudaMemcpyDeviceToHost));
            std::vector<float> a;
            a.reserve((size_t)n * n * n);
            for (int k = 0; k < n; ++k)
                for (int j = 0; j < n; ++j)
                    for (int i = 0; i < n; ++i)
                        a.push_back(got[front + (k + R) * slice + (j + R) * line + i + R]);
            return a;
        };
        std::vector<float> ref_floor, ref_body;
        std::function<void()> before_round = [] {};
        auto time_graph = [&](const char* name, long line, long slice, long front, auto&& launch,
                              std::vector<float>& ref) {
            fill(line, slice, front);
            float *a = p, *b = q;
            cudaGraph_t g;
            cudaGraphExec_t x;
            CK(cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal));
            for (int s = 0; s < S; ++s) {
                launch(a, b);
                std::swap(a, b);
            }
            CK(cudaStreamEndCapture(st, &g));
            CK(cudaGraphInstantiate(&x, g, 0));
            float best = 1e30f;
            for (int round = 0; round < 3; ++round) {
                CK(cudaMemcpy(p, init.data(), alloc * 4, cudaMemcpyHostToDevice));
                CK(cudaMemcpy(q, init.data(), alloc * 4, cudaMemcpyHostToDevice));
                before_round();
                CK(cudaEventRecord(e0, st));
                CK(cudaGraphLaunch(x, st));
                CK(cudaEventRecord(e1, st));
                CK(cudaEventSynchronize(e1));
                float ms;
                CK(cudaEventElapsedTime(&ms, e0, e1));
                best = std::min(best, ms * 1000.f / S);
            }
            const std::vector<float> now = interior(S % 2 ? q : p, line, slice, front);
            const char* same = "";
            if (ref.empty())
                ref = now;
            else
                same =
                    memcmp(now.data(), ref.data(), now.size() * 4) ? "  MISMATCH" : "  same bits";
            printf("%4d^3 %-34s %7.2f us/step %7.1f Gcell/s%s\n", n, name, best,
                   (double)n * n * n / best / 1e3, same);
            CK(cudaGraphExecDestroy(x));
            CK(cudaGraphDestroy(g));
        };
        const dim3 cb(32, 4, 2), cgrid((n + 31) / 32, (n + 3) / 4, (n + 1) / 2);
        time_graph(
            "floor-own 32x4x2", own_line, own_slice, 0,
            [&](float* a, float* b) {
                floor_cell<<<cgrid, cb, 0, st>>>(Flat{a, b, v, own_line, (long)own_slice, n}, R);
            },
            ref_floor);
        time_graph(
            "floor-ours 32x4x2", ours.line, ours.slice, ours.front,
            [&](float* a, float* b) {
                floor_cell<<<cgrid, cb, 0, st>>>(Flat{a + ours.front, b + ours.front,
                                                      v + ours.front, ours.line, (long)ours.slice,
                                                      n},
                                                 R);
            },
            ref_floor);
        time_graph(
            "lean4 16x16", ours.line, ours.slice, ours.front,
            [&](float* a, float* b) {
                lean4<<<dim3((n / 4 + 15) / 16, (n + 15) / 16, n), dim3(16, 16), 0, st>>>(
                    Flat{a + ours.front, b + ours.front, v + ours.front, ours.line,
                         (long)ours.slice, n},
                    R);
            },
            ref_body);
        ref_body.clear(); // lean4's sums are in another order than slab_cells'
        time_graph(
            "lean4c 16x16 (canonical order)", ours.line, ours.slice, ours.front,
            [&](float* a, float* b) {
                lean4c<<<dim3((n / 4 + 15) / 16, (n + 15) / 16, n), dim3(16, 16), 0, st>>>(
                    Flat{a + ours.front, b + ours.front, v + ours.front, ours.line,
                         (long)ours.slice, n},
                    R, co);
            },
            ref_body);
        const Box box = ours.interior();
        const XGroups groups = XGroups::of(ours, box.x0, box.x1, 4);
        const Sponge off{};
        for (const int form : {0, 1, 2}) // body, body-app, body capped at 64 registers
            for (const int bx : {16, 32})
                for (const int by : {16, 8, 4})
                    for (const int w : {1, 2, 4}) {
                        if (bx * by > 256 || (form && !(bx == 16 && by == 16)) ||
                            (bx == 32 && by == 16))
                            continue;
                        const bool app = form == 1;
                        char name[64];
                        snprintf(name, sizeof name, "%s %dx%d w%d",
                                 form == 2 ? "body-64reg"
                                 : app     ? "body-app"
                                           : "body",
                                 bx, by, w);
                        const dim3 grid((groups.count + bx - 1) / bx, (n + by - 1) / by,
                                        (n + w - 1) / w);
                        time_graph(
                            name, ours.line, ours.slice, ours.front,
                            [&](float* a, float* b) {
                                const FieldView<const float> pa{a + ours.front, ours},
                                    vv{v + ours.front, ours};
                                const FieldView<float> qb{b + ours.front, ours};
                                if (form == 1)
                                    body<true, 128><<<grid, dim3(bx, by), 0, st>>>(
                                        pa, qb, vv, box, groups, w, co, off, nullptr, {});
                                else if (form == 2)
                                    body<false, 64><<<grid, dim3(bx, by), 0, st>>>(
                                        pa, qb, vv, box, groups, w, co, off, nullptr, {});
                                else
                                    body<false, 128><<<grid, dim3(bx, by), 0, st>>>(
                                        pa, qb, vv, box, groups, w, co, off, nullptr, {});
                            },
                            ref_body);
                    }
        // The mini-app's step around the same kernel (16x16, one plane): a
        // source in the box (two tables, the step count alternating between two
        // words as the mini-app's do), an event recorded after every step, and
        // one graph a step launched from the host.
        {
            long long* words;
            CK(cudaMalloc(&words, 2 * sizeof(long long)));
            CK(cudaMemset(words, 0, 2 * sizeof(long long)));
            SourceInUpdate<float> tables[2];
            for (int t = 0; t < 2; ++t) {
                tables[t].add(box.x0 + n / 2, box.y0 + n / 2, box.z0 + n / 2);
                tables[t].source = RickerSource{1e-3, 10.0, 0.1, 1e-6};
                tables[t].steps_in = words + t;
                tables[t].steps_out = words + 1 - t;
            }
            SourceInUpdate<float>* dev_tables;
            CK(cudaMalloc(&dev_tables, sizeof tables));
            CK(cudaMemcpy(dev_tables, tables, sizeof tables, cudaMemcpyHostToDevice));
            std::vector<cudaEvent_t> done(16);
            for (auto& ev : done)
                CK(cudaEventCreate(&ev));
            const dim3 grid((groups.count + 15) / 16, (n + 15) / 16, n);
            int step = 0;
            auto kernel = [&](float* a, float* b, bool with_source) {
                const FieldView<const float> pa{a + ours.front, ours}, vv{v + ours.front, ours};
                const FieldView<float> qb{b + ours.front, ours};
                body<true, 128><<<grid, dim3(16, 16), 0, st>>>(
                    pa, qb, vv, box, groups, 1, co, off, nullptr,
                    with_source ? SourceInLaunch<float>{dev_tables + step % 2, tables[step % 2]}
                                : SourceInLaunch<float>{});
                ++step;
            };
            ref_body.clear();
            before_round = [&] { CK(cudaMemset(words, 0, 2 * sizeof(long long))); };
            time_graph(
                "app, source", ours.line, ours.slice, ours.front,
                [&](float* a, float* b) { kernel(a, b, true); }, ref_body);
            time_graph(
                "app, source, event a step", ours.line, ours.slice, ours.front,
                [&](float* a, float* b) {
                    kernel(a, b, true);
                    CK(cudaEventRecord(done[step % 16], st));
                },
                ref_body);
            time_graph(
                "app, no source, event a step", ours.line, ours.slice, ours.front,
                [&](float* a, float* b) {
                    kernel(a, b, false);
                    CK(cudaEventRecord(done[step % 16], st));
                },
                ref_body);
            // One graph a step (two, by parity), launched S times.
            for (const bool events : {false, true}) {
                fill(ours.line, ours.slice, ours.front);
                cudaGraphExec_t x[2];
                for (int par = 0; par < 2; ++par) {
                    cudaGraph_t g;
                    step = par;
                    CK(cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal));
                    kernel(par ? q : p, par ? p : q, true);
                    if (events) CK(cudaEventRecord(done[par], st));
                    CK(cudaStreamEndCapture(st, &g));
                    CK(cudaGraphInstantiate(&x[par], g, 0));
                    CK(cudaGraphDestroy(g));
                }
                CK(cudaMemcpy(p, init.data(), alloc * 4, cudaMemcpyHostToDevice));
                CK(cudaMemcpy(q, init.data(), alloc * 4, cudaMemcpyHostToDevice));
                CK(cudaMemset(words, 0, 2 * sizeof(long long)));
                CK(cudaEventRecord(e0, st));
                for (int s = 0; s < S; ++s)
                    CK(cudaGraphLaunch(x[s % 2], st));
                CK(cudaEventRecord(e1, st));
                CK(cudaEventSynchronize(e1));
                float ms;
                CK(cudaEventElapsedTime(&ms, e0, e1));
                const float us = ms * 1000.f / S;
                printf("%4d^3 %-34s %7.2f us/step %7.1f Gcell/s\n", n,
                       events ? "app, a graph a step, event" : "app, a graph a step", us,
                       (double)n * n * n / us / 1e3);
                for (auto& gx : x)
                    CK(cudaGraphExecDestroy(gx));
            }
            before_round = [] {};
            for (auto& ev : done)
                CK(cudaEventDestroy(ev));
            CK(cudaFree(dev_tables));
            CK(cudaFree(words));
        }
        CK(cudaFree(p));
        CK(cudaFree(q));
        CK(cudaFree(v));
    }
    return 0;
}
