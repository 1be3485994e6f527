// The option page's longer text (docs/OPTIONS.md), keyed by option name;
// the first paragraph of each option is its help line in option_table.cpp.
// Markdown, as the page prints it; image paths are relative to docs/.
#include "config/option_table.hpp"

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
are damped), or a sponge wider than half an axis, get a `warning:` line.)md"},
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
every face linked), that many steps are one graph with their timers: at
64³ a launch and the host's calls a step are much of a step. Receivers,
snapshots, checkpoints, NaN checks and stop signals still come at their
step. Bit-identical either way.)md"},
    {"--update",
     R"md(The tile walks z with an LDS tile and a register window, so each
loaded plane serves 2R + 1 outputs, but it needs many blocks to fill a GPU.
Cells gives each thread one 16-byte group of one plane (or of `--window`
planes), every neighbour read through the caches, which a small box's
fields fit; it also adds the source, so a step is one launch. `auto` takes
cells up to 100³ cells a box (`kCellUpdateUpTo`, kernels/launch_shape.hpp;
docs/PERFORMANCE.md, "Small boxes"). A tile's field (`--rows`, `--window`,
...) without `--update` runs the tile. Results are bit-identical.)md"},
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
    {"--report",
     R"md(The JSON is written complete or not at all, like every other output, and
to a new file: one there before step 1 is refused, and one that appears
during the run is not replaced (`--output-force` replaces either). Its
`provenance` says what the field is: docs/RUNNING.md, "Provenance".)md"},
    {"--timeline",
     R"md(Chrome trace events (JSON) of the first 8 sampled deep-halo cycles
(one in 8 cycles of timed steps is sampled; `--halo-depth`): one track per
rank and lane (host, compute stream, halo stream), each phase of the step a
span named as in the schedule (`begin`, `pack`, `interior`, `post`,
`wait`, `unpack`, `boundary`, `join`, `source`, ...). Device phases are
timed by events recorded on their stream before and after the phase (with
`--graphs`, by the sampled graph's own event nodes), host phases by the
host's clock; both are put on one clock per rank at the first sampled
step, and the ranks on a common origin taken after an `MPI_Barrier`
(within a few microseconds on a node). `otherData` holds each step's
schedule, the grid, radius, halo path and depth, overlap and the device.
Open the file at <https://ui.perfetto.dev> or, offline, in
`chrome://tracing`; `tools/timeline-svg.py` draws one step as an SVG
(docs/RUNNING.md). The file is written complete or not at all; a path in
a missing or unwritable folder, a directory, or the path of another file
the run reads or writes is refused before step 1.)md"},
    {"--label", "The scaling scripts write `weak` or `strong`."},
    {"--output",
     R"md(- **Every write is checked**, including the close and an `fsync`. A
  snapshot is written under `NAME.partial`, each rank then reads its part
  back and compares (Open MPI's default I/O component, OMPIO, has been seen
  to report success for writes that hit a full disk), and only when every
  rank agrees is it renamed; its sidecar is written and renamed last. A
  failure on any rank stops the run on every rank with one line, such as
  `stencil-miniapp: writing out/snapshot_000010.raw: No space left on
  device`, and a non-zero exit; the partial file is removed, and no later
  output is attempted. So a file under its final name is complete, and a
  sidecar always describes a complete file. The read-back costs one read
  of each snapshot.
- **Checksums.** Each sidecar (`snapshot_*.json`, `traces.json`) records
  `bytes` and `crc32`: the standard CRC-32 (zlib, gzip, PNG) of the whole
  file, computed by the ranks from their own pieces and combined, with no
  rank reading the file. `python3 -c 'import zlib,sys; print("%08x" %
  zlib.crc32(open(sys.argv[1],"rb").read()))' FILE` prints the same value.
  `tools/verify-output.py out` checks a folder on any machine: one line
  per file; exit 0 complete, 1 a file differs, 3 incomplete. It also lists
  what an interrupted run leaves (`.partial` files, raw files no sidecar
  describes, and a lock) and then exits 3, so a script can tell an
  interrupted folder from a corrupt one. A folder of slice images alone,
  which have no sidecars, is complete.
- **One run owns its output folder.** Rank 0 creates
  `OUT/stencil-miniapp.lock` exclusively (host, PID, batch job id, start
  time) and removes it when the run ends. A second run that finds the lock
  of a live run is refused. A lock whose run is provably dead (same host,
  and no such process, or its PID now another process's: the lock holds
  the process's start time) is taken over with a `note:` line: the run was
  killed before it could remove it (Open MPI's `mpirun` kills its ranks a
  second after a Ctrl-C; docs/RUNNING.md, "Stopping a run"). One from
  another host, or unreadable, cannot be checked and is refused, naming
  the run. A folder that already holds a finished run's snapshots, traces
  or images is refused too, instead of being overwritten or mixed, and so
  is one whose record is of a run stopped by a signal, which
  `--restart latest` continues there.
- **The folder's record.** `OUT/stencil-miniapp.run.json` lists every file
  the run wrote there, the run that began the outputs (its lineage, which
  its checkpoints carry to every restart) and how the run ended (`running`,
  `stopped`, `failed`, `complete`). `--output-force` removes only what a
  record lists; a file named as an output that no record lists (a user's
  `snapshot_000098.json`, an older version's) is refused even then, since
  the run would write over it. A restart removes only what its own run's
  record lists after the restart's step (and that run's end files: the
  traces, the shot gather, the last slice), and refuses a folder holding
  another run's outputs. `tools/verify-output.py` reads the record: a
  stopped or failed run is incomplete (exit 3), a listed file gone is a
  failure (exit 1).
- **Room.** Before the first step, the run estimates what it will write
  (snapshots, images, traces) and refuses to start if the file system has
  less free space, naming both numbers.)md"},
    {"--output-force",
     R"md(A lock it cannot verify (one from another host, or unreadable) is
replaced too. Each of these gets a `note:` line. It never takes the lock of a run that is alive
on this host, and removes only the files a record of a run lists
(`stencil-miniapp.run.json`, under `--output`).)md"},
    {"--snapshot-every",
     R"md(The raw file is written with collective MPI-IO, x fastest
(`numpy.fromfile(f, numpy.float32).reshape(nz, ny, nx)`); its JSON sidecar
holds the dtype, dimensions, spacing, dt, step, time, and the file's
length, CRC-32 and run id. A `--snapshot-every` longer than the run gets a
`warning:` line.)md"},
    {"--slice",
     R"md(A diverging seismic map, symmetric and clipped at the 99.5th
percentile, with the source (cross) and the sponge's inner edge (dashed).)md"},
    {"--receivers",
     R"md(`--receivers FILE` (one `x,y,z` per line; blank lines and `#` comments
are fine) or `--receiver-line z=K` records p at every step into
`traces.bin` (receiver-major, in the run's precision, with `traces.json`)
and draws `shot_gather.png`. Each receiver is recorded by the one rank that
owns its cell. A shot gather of many receivers is drawn with one receiver
in k (at most 4,096 columns), and the traces line says so; `traces.bin`
keeps them all. A file with no receiver, or a line that is not `x,y,z`, is
refused.)md"},
    {"--checkpoint-every",
     R"md(- TIME is rank 0's clock, agreed on by the ranks every 8 steps with the
  stop signal.
- A checkpoint holds both time levels as global raw files written with
  collective MPI-IO, and `checkpoint.json` (the step, each file's length
  and CRC-32, everything that changes the result, the run's settings by
  their CRC-32 and the process that wrote it), written last and sealed by
  a CRC-32 of its own text. A checkpoint whose files, `checkpoint.json` or
  folder name (`step_NNNNNN`: the step) disagree does not verify: a
  restart reports it and falls back to the one before, and sets it aside
  whole as `step_NNNNNN.kept` (with a `set-aside.txt` saying why) where it
  lies in the folder the run writes its checkpoints to: never removed,
  and `tools/verify-output.py` notes it rather than failing the folder.
- Each is assembled under `step_NNNNNN.partial` (whose first file is a
  placeholder `checkpoint.json` naming the run's settings, so that a
  clean-up knows the folder as this run's) and renamed when complete. The
  two newest of the run's settings that verify are kept (one that does not
  verify is never removed), and a completed run removes the `.partial` ones
  of its settings; no other folder is ever removed, whatever its name. A
  checkpoint loses only the files its `checkpoint.json` lists, the files a
  checkpoint is written as and `checkpoint.json`, never through a link: a
  folder still holding files of the user's, or a link, is left with a
  `note:` line, or moved aside whole to `step_NNNNNN.kept` where the run
  (or `--output-force`) writes that step again. A newest checkpoint whose
  `checkpoint.json` is damaged (truncated, emptied) is set aside the same
  way by a restart, which falls back to the one before.)md"},
    {"--checkpoint-dir",
     R"md(Checked before step 1, on rank 0 for all ranks, as `--output` is: not
`/`, made if missing, written in, locked for the run (a running job's
folder is refused even with `--output-force`; a dead run's lock is taken
over with a `note:` line), with room for two checkpoints and the one being
written. A folder holding another run's checkpoints (other
settings; without `--restart`, any complete one) is refused in one line
naming that run: continue it with `--restart latest` (same settings),
pass `--output-force` to remove them (this program's checkpoints only), or
choose another folder. With `--restart latest`, a changed setting is
refused as the restart refuses it, by name, and another run's `.partial`
is passed by (no `.partial` is a restart candidate). A folder or file of
the user's named for a step a checkpoint is due at is refused too; any
other is left alone. `tools/verify-output.py` checks every checkpoint
file against `checkpoint.json`.)md"},
    {"--restart",
     R"md(- `--restart latest` continues from the newest checkpoint that verifies
  (a damaged one is reported and the one before is used), on any rank
  count and decomposition, with the same command line. The result is bit
  for bit that of an uninterrupted run. A changed physical setting or
  output option (snapshots, slice, receivers) is refused, naming it;
  timing options may change.
- What the seal covers: `checkpoint.json`'s CRC-32 of its own text, each
  file's length and CRC-32, and the folder's name against its step catch
  damage and hand edits. It is a check, not a signature: a checkpoint
  edited on purpose, its CRC-32s recomputed and its folder renamed, is
  continued as what it now says.
- Outputs carry across: the checkpoint holds the traces so far, the
  earlier run's snapshots and slices up to the checkpoint stay (they are
  the same bytes), and what it wrote after it is removed and written again,
  so the folder ends as an uninterrupted run's, file for file. A job
  requeued by Slurm takes its earlier attempt's lock itself (same job ID,
  higher `SLURM_RESTART_COUNT`).
- **SIGTERM, SIGINT and SIGUSR1** (Ctrl-C, or Slurm's
  `--signal=USR1@120` before the time limit) stop the run at a step
  boundary the ranks agree on within 16 steps: a checkpoint if they are
  on, one line (`stencil-miniapp: stopped by SIGUSR1 at step 1234;
  checkpoint out/checkpoints/step_001234 written; resume with --restart
  latest`), no `.partial` file, the folder's lock released, and exit
  status 75 (EX_TEMPFAIL). A second signal while it stops ends the process
  at once (exit status 128 + the signal), leaving only the `.partial`
  folder of the checkpoint it was writing, and no lock.)md"},
    {"--check",
     R"md(`--comm none` on several ranks is refused (one rank checks its own
periodic faces); a failed check fails the output folder too. A halo
moved before the wave reaches it holds zeros either way, so a run too short
for the wave (R cells a step from the source) to reach every rank boundary
says so after the check line (per rank face: each rank's halo from one neighbour, the
signal R cells along one axis per step), with the `--steps` that reach all; the JSON's
`check` has `boundaries`, `boundaries_reached` and `steps_to_reach_all`.)md"},
    {"--nan-check", "An unstable run stops with the step and the first rank that saw it."},
    {"--quiet", "So it also drops the context lines and the phase table."},
    {"--poison-halo", "A halo the exchange missed then shows, as NaN that `--check` catches."},
    {"--inject-fault",
     R"md(Each planted bug must be caught: by `--check`, the NaN check, the
abort path or the write checks. `late-rank=N` is caught by the timing: the
reported step time must not hold rank N's 2 s. `peer-skip-wait` and
`peer-early-signal` are races made certain by holding back the other
ranks' stores: where some faces also go by MPI (`STENCIL_NODE_RANKS`), the
messages order the ranks too and may hide them. `peer-wrong-face`,
`peer-wrong-level` and `short-fused-pack` warn where they plant nothing; `skip-slab-cell` plants
nothing where a rank has no boundary slabs (`--overlap off`, or no
neighbour). One that could plant nothing (nan or fail-rank before step 3
or past it on a restart, write-error with one snapshot, a bug in the
exchange under `--comm none` on several ranks) is refused; the last
`--inject-fault` counts.)md"},
};

} // namespace

const OptionDetail* option_details(int& count) {
    count = int(sizeof kDetails / sizeof kDetails[0]);
    return kDetails;
}

} // namespace stencil
