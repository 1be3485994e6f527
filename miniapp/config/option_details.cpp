// The option page's longer text (docs/OPTIONS.md), keyed by option name;
// the first paragraph of each option is its help line in option_table.cpp.
// The run's and the execution's options here; the outputs', restarts' and
// checks' in option_details_io.cpp.
// Markdown, as the page prints it; image paths are relative to docs/.
#include "config/option_table.hpp"

#include <iterator>
#include <vector>

namespace stencil {
namespace {

const OptionDetail kDetails[] = {
    {"--procs", "By default `MPI_Dims_create` chooses, with most ranks along z."},
    {"--precision", "Run a problem in both to see whether single precision is enough."},
    {"--steps", "N steps of physics, all timed: what the traces, snapshots and report count."},
    {"--warmup",
     R"md(The warm-up steps run first, untimed, to capture graphs and settle
clocks, and are then undone, so they change no output. Where an auto
choice timed the run's setting, a speed check runs before them
(docs/RUNNING.md, "Choices timed in the warm-up"); `--warmup 0` skips both.)md"},
    {"--model",
     R"md(`--model file:PATH` reads a raw global field of speeds in m/s (float32
or float64, x fastest) described by the same JSON sidecar a snapshot has
(`PATH` minus `.raw`, plus `.json`: `dtype`, `dims`, `spacing_m`, `bytes`,
`crc32`).

- Before the first step it is checked whole, in parallel: the sidecar is
  there and its dims are the grid's and its spacing the run's; the file's
  length and CRC-32 are the sidecar's; every speed is a speed of sound in
  m/s, from 1 to 100000 (a value outside is a wrong file, dtype, byte order
  or unit). Each failure is one line (`--model file:m.raw: the speed at
  cell 3,7,5 is -1500 m/s; every value must be a speed of sound in m/s,
  from 1 to 100000`). The slowest and fastest speeds then set the default
  f0, the dispersion warning and the stability limit.
- Each rank then reads its own box and the halo it needs with collective
  MPI-IO (past a physical edge a halo cell takes the edge's speed; along a
  periodic axis, the wrapped cell's). The report names the model by path,
  type and CRC-32; checkpoints name it by CRC-32, so a model file may move
  between a run and its restart, but not change.
- `tools/make-model.py` writes such files: `layered` (the built-in
  `--model layered`, cell for cell, or your own `--velocities`), `salt` (a
  speed gradient with depth and a salt body), `random` (the gradient with
  smooth random perturbations, `--percent`, `--seed`), `npy ARRAY.npy` (a
  NumPy array of shape (nz, ny, nx)) and `raw FIELD.raw` (any raw file with
  its sidecar, such as a snapshot, mapped to `--offset` ± `--swing` m/s).
  It needs NumPy (`python3-numpy`).

```sh
python3 tools/make-model.py salt --grid 240,80,160 --output models/salt.raw
mpirun -np 2 build/miniapp/stencil-miniapp --grid 240,80,160 --model file:models/salt.raw --sponge 16 \
    --steps 550 --source 120,40,24 --slice y=40 --snapshot-every 550 --output out-salt
```

![slice through the salt model](images/salt_slice_y40_step550.png))md"},
    {"--spacing",
     R"md(Physics is in SI units (`--spacing`, `--dt`, `--f0`). Non-finite values,
and spacings the run's precision cannot hold (1/h², dt²c²), are refused.)md"},
    {"--f0",
     R"md(The default keeps the shortest wavelength the Ricker source carries,
c_min / (2.5 f0), at least 6 cells long and at least as long as the
stencil needs. Fewer cells per shortest wavelength than the order-2R
stencil needs for a phase-speed error of 1%, computed from its dispersion
relation, get a `warning:` line: 12.8 cells at R = 1, 5.3 at R = 2, 3.9 at
R = 3, 3.4 at R = 4, 2.7 at R = 8.)md"},
    {"--sponge",
     R"md(A source, a receiver line or receivers inside the sponge (their waves
are damped), or a sponge wider than half an axis, get a `warning:` line.
W is at most 46000 cells (the profile squares it in 32-bit integers).

The sponge damps each step by a rate that grows quadratically from 0 at
its inner edge to 0.1 at the grid's edge (`sponge_strength`,
miniapp/config/model.cpp). What one face of it reflects, in dB of the
incident energy (0 dB: a perfect mirror where the sponge begins; the
rigid wall of `--sponge 0` reads 0.0 dB):

| `--sponge W` | normal incidence | 45° |
|---|---|---|
| 0 (rigid wall) | 0.0 dB | 0.0 dB |
| 8 | -16.8 dB | -16.0 dB |
| 16 | -27.6 dB | -23.9 dB |
| 32 | -39.5 dB | -34.6 dB |

Measured by `tools/sponge-reflection.py build/miniapp/stencil-miniapp`
(2026-12-06, HOST back-end, 2 CPU cores, Debian bookworm; 75 s):
constant model, R = 4, FP32, the default f0 (6 cells per shortest
wavelength, 15 per peak wavelength) and dt; a receiver 20 cells above the
face's mirror plane z = W - 1 (the sponge's innermost damped layer;
z = -1, the zeros outside the grid, for W = 0), and a point source 20
cells behind it (normal incidence) or beside it, 40 cells along the face
(45°). With the same problem run in a box extended away from the face
(the reference: the two differ only by what the face sends back),
R = 10 log10(E_r / E_i): E_r the sum of (p_box - p_reference)^2 at the
receiver up to the end (t0 + 1.5/f0) of the wave a rigid wall at the
grid's edge would return; E_i the sum of p_reference^2 at the receiver's
mirror image in the plane, up to the end of the direct wave there: what a
perfect mirror would return, along a path as long. The boxes are sized so
that no other arrival enters either window (the tool's docstring gives
each length). The physics depends on the back-end only through rounding,
so the table holds for GPU runs too; ctest `sponge_reflection_below_bound`
keeps `--sponge 16` at normal incidence below -24 dB. The angle is
nominal: a point source sends a spread of them.

The strength is the default because it was the best measured at 16 and
32 cells (normal incidence; a build whose model.cpp set each strength):

| strength | W = 8 | W = 16 | W = 32 |
|---|---|---|---|
| 0.05 | -9.5 dB | -18.0 dB | -32.7 dB |
| 0.1 (default) | -16.8 dB | -27.6 dB | -39.5 dB |
| 0.15 | -19.7 dB | -26.6 dB | -36.6 dB |
| 0.2 | -18.2 dB | -24.8 dB | -34.4 dB |
| 0.4 | -14.2 dB | -20.8 dB | -29.5 dB |

Weaker, the wave reaches the rigid wall and comes back; stronger, the
damping's own rise reflects it. At 32 cells 0.07 measured -39.5 dB too.
At 8 cells 0.15 takes 3 dB more off, but costs 1 dB at 16 and 3 dB at 32;
a width of 16 instead of 8 takes 11 dB off.
The strength is per step: a `--dt` below the default gives a wave more
steps in each cell, and so damps it more per cell, as a larger strength
would (above it, less); another R has another default dt. The tables are
for R = 4 at the default dt.)md"},
    {"--periodic",
     R"md(Past the last plane is the first. A rank exchanges with its neighbour
across a periodic axis as across any other face; weak-scaling studies get
the same work on every rank. Where a rank is alone along the axis it is
its own neighbour: the update that computes a face also stores it into
the halo across the box (the fused pack), or the exchange copies it
there, never through MPI; a rank alone on a periodic box then runs one
kernel a step, with `--comm none` too. A sponge has no edge to absorb at
there: `--sponge` with `--periodic` is refused.)md"},
    {"--comm",
     R"md(- `auto` is gpu-aware when the MPI library says it can take device
  pointers (Open MPI `MPIX_Query_{cuda,rocm}_support`, MPICH
  `MPIX_GPU_query_support`, Cray `MPICH_GPU_SUPPORT_ENABLED`), else staged
  through pinned host memory. `STENCIL_GPU_AWARE_MPI=1/0` overrides the
  detection; `--comm gpu-aware` on an MPI library that is not GPU-aware is
  refused. Where every rank reaches the GPUs of its node, `auto` also
  times `peer` against that path on the run's own steps and takes it where
  it is faster by 2% and by more than the trials' spread; the report says
  both times.
- An Open MPI configured without `--with-rocm` (or `--with-cuda`), such as
  Debian's, answers 0, so `--comm auto` stages through host memory, and the
  report says so: "Open MPI was built without ROCm (MPIX_ROCM_AWARE_SUPPORT
  = 0)". Its `pml ucx` may still move device buffers when UCX itself was
  built with ROCm (`ucx_info -v` shows `--with-rocm`). To try it, run once
  with `STENCIL_GPU_AWARE_MPI=1 ... --comm gpu-aware --preflight`.
  `tools/mpi-gpu-probe.c` prints what any MPI library says of GPU buffers
  without building the mini-app: `mpicc tools/mpi-gpu-probe.c -o probe &&
  mpirun -np 1 ./probe`.
- `nccl` runs NCCL (CUDA) or RCCL (HIP) on the halo stream, where CMake
  found the library (docs/BUILDING.md).
- `peer`: the update kernel that computes a face cell also stores it
  straight into the halo of a neighbour on the same node (GPU memory mapped
  by IPC; on the HOST back-end an MPI shared-memory window), and step
  counts raised on the device order the ranks: no pack, unpack, slab or
  message. A rank whose faces are all on its node runs one kernel a step,
  replayed as one graph with the wait and the raise. Faces to other nodes
  go by GPU-aware MPI, behind the interior (overlap on, with slabs only at
  those faces) or before one whole-box update (off), as `--overlap` says.
  It needs halo depth 1 and the fused pack (`--halo-depth K` > 1 and
  `--pack separate` are refused) and every GPU of a node visible to every
  rank. `STENCIL_NODE_RANKS=N` treats blocks of N ranks as nodes, to try
  faces that leave the node on one machine.
- `none` moves no message: one GPU's arithmetic alone. A rank's own
  periodic faces are no messages and are kept.)md"},
    {"--overlap",
     R"md(On: the interior kernel runs while the halos travel, then the shell
of slabs next to the halos. Off: the exchange first, then one whole-box
kernel. `auto` times both on the run's own steps in the warm-up (at the
explicit `--halo-depth`, else at 1, before the depth is chosen) and keeps
on unless off is more than 2% faster. On the HOST back-end, with
`--comm none` or without neighbours it is on. Where no face travels as a
message (a rank alone on a periodic box, or `--comm peer` on one node)
there is nothing to hide: one whole-box update a step stores every face,
whatever `--overlap` says. The report says which ran and why. Results are
bit-identical either way.)md"},
    {"--pack",
     R"md(Fused: the boundary kernels, as they write the owned faces, also
store them into the next exchange's send buffers (and a rank's own faces
straight into its halos), so no pack launch and no unpack of its own faces
remain. It applies with overlap on, halo depth 1 and a GPU-aware or NCCL
exchange (or faces that are all the rank's own). Separate: a pack launch
before the sends, as at other depths. The fused slabs are heavier and can
cost more beside the interior than the launches they save (an H200 at
512^3: 0.92 against 0.83 ms per step), so `auto` times both where it
times the overlap (and with `--overlap on`) and keeps fused unless
separate is more than 2% faster. Results are bit-identical either way.)md"},
    {"--halo-depth",
     R"md(In between exchanges each rank updates a ring of its neighbours' cells
again, shrinking by R per step, so it sends K times fewer (larger) messages
for a few per cent more arithmetic. Worth it where message latency bounds
the step (small boxes per GPU, strong scaling); K = 1 is the exchange every
step, and K is at most 8. `auto` times the run's own steps at K = 1 and,
unless the exchange is already hidden, at 2 and 4, and keeps the fastest;
on the HOST back-end, with `--comm none` or without neighbours it is 1.
The report says which K ran and why, and the share of redundant cells.
Results are bit-identical for every K. A rank thinner than K·R along a
split axis is refused.)md"},
    {"--graphs",
     R"md(Graphs need CUDA, or HIP from ROCm 6.2. `auto` turns them on where
they measured faster: `--comm none`, peer and NCCL steps; MPI exchanges
run as plain launches. The report says which, and why. Bit-identical.)md"},
    {"--steps-per-graph",
     R"md(Where a step's device work is one graph (nothing to exchange, or
every face linked), up to that many steps are one graph, timed by one
event at its end: each chunk the longest power of two that starts at a
multiple of itself and ends by the next step with host work. Receivers,
snapshots, checkpoints, NaN checks and stop signals still come at their
step. A small box's step is bound by the host's work for it: on one H100
four steps a graph ran 64³ at 50.8 Gcell/s against 37.7 with one, and up
to sixteen at 61.6 (128³: 152, 170, 180; 512³: the same;
docs/PERFORMANCE.md, "One GPU: chunks of up to 16 steps"). So auto is 16, and one where faces are linked:
chunks of a node's linked steps are unmeasured. Bit-identical either
way.)md"},
    {"--update",
     R"md(The tile walks z with an LDS tile and a register window, so each
loaded plane serves 2R + 1 outputs, but it needs many blocks to fill a GPU.
Cells gives each thread one 16-byte group of one plane (or of `--window`
planes), every neighbour read through the caches, which a small box's
fields fit; it also adds the source, so a step is one launch. `auto` takes
cells up to 100³ cells a box (`kCellUpdateUpTo`, kernels/launch_shape.hpp;
docs/PERFORMANCE.md, "One GPU, small boxes at the GPU's speed"). A tile's
field (`--rows`, `--window`, ...) without `--update` runs the tile.
Results are bit-identical.)md"},
    {"--block-x",
     R"md(`--block-x`, `--block-y`, `--window` and `--rows` set the fused
kernel's launch shape; by default it is chosen per box from measurements
(docs/PERFORMANCE.md), and the report prints what the interior ran.)md"},
    {"--window", "Small boxes get short windows, so they fill the GPU."},
    {"--rows", "The defaults are `default_rows` in kernels/launch_shape.hpp."},
    {"--planes-ahead",
     R"md(While a block computes one plane, each thread's loads for the next
plane (1) or the next two (2) are in flight. Two keep twice the bytes in
flight for more registers; they are built at each radius's default rows,
where those registers neither spill nor leave an SM (CU) fewer bytes in
flight than one plane did (`two_planes_ahead_built` in
kernels/launch_shape.hpp). The default is one: at 512³ two ran 0-10% slower
on an H200, and up to 5% faster on an H100 (docs/PERFORMANCE.md, "What
limits the update kernels"). `--tuning` times both on your GPU. Results are
bit-identical either way.)md"},
    {"--tuning",
     R"md(Rank 0 takes each box's shape from the tuning cache, or tunes it now
within `--tune-seconds` for all boxes, saves the cache and gives every rank
the same shapes; the report lists each box's shape and where it came from.
Results are bit-identical either way. The tuner searches block, z window,
rows per thread and, for the wave update, one or two planes of loads ahead,
and keeps only shapes whose output is bit-identical to the default's; the
benchmark's `--tuning=auto` uses the same cache, and the job scripts keep
one in each results folder.

The cache is plain JSON, one entry per kernel, radius, precision and box
(cells along x, y, z), valid only for the device, architecture, runtime and
kernel sources named at its top (a file made elsewhere is ignored, with
one line saying why):

```json
{
  "format": "stencil-miniapp tuning cache 1",
  "device": "NVIDIA H100 80GB HBM3", "arch": "sm_90",
  "runtime": "CUDA runtime 13000, driver 13000", "kernels_revision": "8d7191752e2c274a",
  "entries": [
    {"kernel": "wave", "radius": 4, "precision": "fp32", "box": [128, 128, 128],
     "block_x": 16, "block_y": 8, "window": 8, "rows": 2, "ahead": 1,
     "ms": 0.0134, "default_ms": 0.0134}
  ]
}
```)md"},
    {"--print-binding",
     R"md(Every rank drives the GPU numbered (node-local rank modulo visible
GPUs).)md"},
    {"--preflight",
     R"md(The face goes through device and through staged buffers, so a
GPU-aware path that corrupts data shows before the run (`--comm`).)md"},
};

} // namespace

const OptionDetail* option_details(int& count) {
    // The run's and the execution's here, the outputs' and the checks' in
    // option_details_io.cpp, joined once.
    static const std::vector<OptionDetail> all = [] {
        std::vector<OptionDetail> joined(std::begin(kDetails), std::end(kDetails));
        int io = 0;
        const OptionDetail* more = output_option_details(io);
        joined.insert(joined.end(), more, more + io);
        return joined;
    }();
    count = int(all.size());
    return all.data();
}

} // namespace stencil
