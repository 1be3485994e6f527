// The option page's longer text for the outputs, restarts and checks
// (docs/OPTIONS.md), keyed by option name; option_details.cpp holds the
// rest and joins the two.
#include "config/option_table.hpp"

namespace stencil {
namespace {

const OptionDetail kOutputDetails[] = {
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
length, CRC-32 and run id. Beside it, `snapshot_NNNNNN.xmf` (XDMF 3) tells
ParaView and VisIt the grid (origin 0, the spacing in metres), the element
type and byte order, and points at the raw file, so they open it as it is;
`snapshots.xmf` lists every snapshot as a time series (open it for the
animation). A `--snapshot-every` longer than the run gets a `warning:`
line.)md"},
    {"--output-format",
     R"md(`hdf5` writes each snapshot as `snapshot_NNNNNN.h5` instead of the raw
file: one dataset, `/p`, of shape (nz, ny, nx) (x fastest, as the raw
file), in the run's precision, contiguous, written by every rank at once
through HDF5's MPI-IO driver (each rank's box a hyperslab of one
collective write). Its attributes hold the step, time, dt, dims (x, y,
z, as the sidecar), spacing and origin in metres, dtype, radius and the
field's provenance; not the run's name, so a run restarted from a
checkpoint ends with the same bytes as an uninterrupted one. The JSON
sidecar holds the same keys as a raw snapshot's, with `"format": "hdf5"`
and `"dataset": "/p"`, and the `.h5` file's length and CRC-32 (each rank
reads its box back, and rank 0 the bytes around the field, as for a raw
file); the XDMF file points at the dataset (`snapshot_NNNNNN.h5:/p`,
`Format="HDF"`), so ParaView and VisIt open it the same way. In Python:
`h5py.File("out/snapshot_000550.h5")["p"][...]`, or the reader's
`read_snapshot`. Checkpoints keep their raw files; a restart must ask
for the same `--output-format` as its checkpoint's run, and another is
refused.

Only where the build found a parallel HDF5 on its own MPI (CMake's
`STENCIL_HDF5`, docs/BUILDING.md; Debian: `libhdf5-openmpi-dev`, Frontier:
`cray-hdf5-parallel`); elsewhere `--output-format hdf5` is refused before
step 1, saying how to get one. Without `--snapshot-every` it writes
nothing, and gets a `warning:` line.)md"},
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
    {"--trace-format",
     R"md(`segy` writes `traces.sgy`, SEG-Y revision 1, one file for the shot
gather: an EBCDIC textual header that names the run, then one trace a
receiver in `traces.json`'s order, IEEE float32 big-endian (format code 5;
an FP64 run's samples narrowed). Each trace header holds the source's and
the receiver's x and y and their depths in metres, scaled by bytes 69-72
(-100: centimetres), the sample count and the sample interval in whole
microseconds. Sample 0 is t = 0, the field at rest, so sample k is at
k dt as readers count; the samples after it are `traces.bin`'s. A run of
more than 32,766 steps, or a dt outside 1-32,767 microseconds, is refused
before step 1; where the whole microseconds drift by more than half a step
over the run, a `warning:` line gives the `--dt` that keeps them exact.
`traces.json` describes the files (its `segy` key) and
`tools/verify-output.py` checks both.)md"},
    {"--checkpoint-every",
     R"md(- TIME is rank 0's clock, agreed on by the ranks every 16 steps with the
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

const OptionDetail* output_option_details(int& count) {
    count = int(sizeof kOutputDetails / sizeof kOutputDetails[0]);
    return kOutputDetails;
}

} // namespace stencil
