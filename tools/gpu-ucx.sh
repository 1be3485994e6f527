#!/usr/bin/env bash
# Open MPI over UCX beside Open MPI's ob1 and NCCL, on the GPUs of one node,
# in one script: the halo paths a user meets on an Open MPI 5 site. It needs
# no package archive, and both CUDA-aware Open MPI builds in .deps/
# (tools/prepare-offline-deps.sh OB1_ARCHIVE UCX_ARCHIVE).
#   1. the CUDA mini-app and stencil-halo-bench built against each library
#      (the two builds side by side);
#   2. what each library says of CUDA buffers (tools/mpi-gpu-probe.c);
#   3. per library and halo path (gpu-aware, staged, nccl): --check bit for
#      bit against one domain on held-out splits, radii, precisions, depths;
#   4. stencil-halo-bench per face size, per library and path;
#   5. stencil-halo-bench through UCX under each UCX setting that matters
#      (UCX_TLS, UCX_RNDV_THRESH, UCX_RNDV_SCHEME, UCX_MEMTYPE_CACHE).
# Prints a table last; logs go to the results folder $OUT (default .out).
# Ranks take the node's GPUs in turn: on a node of one GPU they share it,
# and the halos cross CUDA IPC inside the device, not a link between GPUs.
#
# usage: tools/gpu-ucx.sh [--ranks 2] [--sizes 64,128,256] [--radius 4]
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/.out}
mkdir -p "$OUT"
ranks=2 sizes=64,128,256 radius=4
while [ $# -gt 0 ]; do
  case "$1" in
    --ranks) ranks=$2; shift ;;
    --sizes) sizes=$2; shift ;;
    --radius) radius=$2; shift ;;
    *) echo "gpu-ucx: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
for lib in ompi-4.1.4 ompi-ucx; do
  [ -f ".deps/$lib-cuda-install.tar.xz" ] ||
    { echo "gpu-ucx: .deps/$lib-cuda-install.tar.xz missing (tools/prepare-offline-deps.sh)" >&2; exit 2; }
done
export PATH=/usr/local/cuda/bin:$PATH OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export NCCL_NVLS_ENABLE=0 # never NVLink multicast on shared machines
source tools/offline-deps.sh # sets prefix
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"
# NCCL takes one GPU per rank: where ranks share one, its path is skipped.
paths=gpu-aware,staged,nccl
if [ "$(nvidia-smi -L | wc -l)" -lt "$ranks" ]; then
  paths=gpu-aware,staged
  echo "nccl skipped: $ranks ranks on $(nvidia-smi -L | wc -l) GPU(s), and NCCL needs a GPU per rank"
fi

# name|archive|root|mpirun arguments. Each archive unpacks where it was
# configured to live (its --prefix, less /install): its wrappers find their
# data only there. UCX's baseline transports are those of one node's GPUs;
# the settings sweep varies them.
libraries=("ob1|ompi-4.1.4|/tmp/gpumpi|--mca pml ob1"
           "ucx|ompi-ucx|/tmp/gpumpi5|--mca pml ucx --mca pml_ucx_tls any --mca pml_ucx_devices any")
ucx_baseline=cuda_copy,cuda_ipc,sm,self
build() { # build NAME ARCHIVE ROOT
  local root=$3
  mkdir -p "$root" && tar xJf ".deps/$2-cuda-install.tar.xz" -C "$root"
  rm -rf "build-gpu-$1" # a cached MPI of an earlier configure would outlive -DMPI_HOME
  PATH=$root/install/bin:$PATH LD_LIBRARY_PATH=$root/install/lib:${LD_LIBRARY_PATH:-} \
    cmake -S . -B "build-gpu-$1" -DSTENCIL_BACKEND=CUDA -DSTENCIL_BUILD_TESTS=OFF "${prefix[@]}" \
    -DMPI_HOME="$root/install" >"$OUT/build-$1-configure.log" 2>&1 || return 1
  require_mpi_from "$OUT/build-$1-configure.log" "$root/install" || return 1
  cmake --build "build-gpu-$1" -j"$(($(nproc) / 2))" --target stencil-miniapp stencil-halo-bench \
      >"$OUT/build-$1.log" 2>&1 &&
    "$root/install/bin/mpicc" tools/mpi-gpu-probe.c -o "build-gpu-$1/mpi-gpu-probe" 2>>"$OUT/build-$1.log"
}
for spec in "${libraries[@]}"; do
  IFS='|' read -r name archive root _ <<<"$spec"
  build "$name" "$archive" "$root" &
done
build_failed=0
for job in $(jobs -p); do wait "$job" || build_failed=1; done
[ "$build_failed" = 0 ] || { grep -h -B2 -A6 -E "error|Error" "$OUT"/build-*.log | head -40; exit 1; }

status=0
mpi() { # mpi NAME ARGS...: mpirun of library NAME with its pml and the UCX settings exported
  local spec name archive root flags
  for spec in "${libraries[@]}"; do
    IFS='|' read -r name archive root flags <<<"$spec"
    [ "$name" = "$1" ] || continue
    shift
    local passed=() v
    for v in $(env | grep -o -E '^UCX_[A-Z_]+'); do passed+=(-x "$v"); done
    # shellcheck disable=SC2086 # flags is a list of mpirun options
    LD_LIBRARY_PATH=$root/install/lib:${LD_LIBRARY_PATH:-} "$root/install/bin/mpirun" $flags "${passed[@]}" --oversubscribe "$@"
    return
  done
}

export UCX_TLS=$ucx_baseline # the settings sweep below varies it
for lib in ob1 ucx; do
  echo "== $lib: $(mpi "$lib" -np 1 "build-gpu-$lib/mpi-gpu-probe" | grep -E "library|Query_cuda" | paste -sd';' -)"
done | tee "$OUT/probe.txt"

echo
echo "== --check bit for bit against one domain (held-out splits, radii, precisions, depths)"
cases=("1,1,$ranks|6|fp32|1" "$ranks,1,1|3|fp64|1" "1,$ranks,1|8|fp32|2" "$ranks,1,1|5|fp32|3")
for lib in ob1 ucx; do
  for mode in ${paths//,/ }; do
    for spec in "${cases[@]}"; do
      IFS='|' read -r procs r precision depth <<<"$spec"
      name=check-$lib-$mode-$(echo "$procs" | tr , x)-r$r-$precision-k$depth
      mpi "$lib" -np "$ranks" "build-gpu-$lib/miniapp/stencil-miniapp" --grid 96,88,80 \
        --procs "$procs" --radius "$r" --precision "$precision" --halo-depth "$depth" --steps 20 \
        --comm "$mode" --check >"$OUT/$name.txt" 2>&1 || true
      line=$(grep -h "^check:" "$OUT/$name.txt" || echo "no check line: $(tail -1 "$OUT/$name.txt" | tr -d '\0')")
      printf '%-4s %-10s %-8s R=%s %s k=%s  %s\n' "$lib" "$mode" "$procs" "$r" "$precision" "$depth" "$line"
    done
  done
done | tee "$OUT/checks.txt"
grep -q -v "bitwise equal" "$OUT/checks.txt" && status=1 # the loop ran in the pipe's subshell

echo
echo "== the mini-app, 128^3 per rank, $ranks ranks: each library and path against --comm none"
for lib in ob1 ucx; do
  for mode in ${paths//,/ } none; do
    name=step-$lib-$mode
    mpi "$lib" -np "$ranks" "build-gpu-$lib/miniapp/stencil-miniapp" --local 128,128,128 --procs "1,1,$ranks" \
      --radius "$radius" --steps 200 --warmup 20 --halo-depth 1 --comm "$mode" >"$OUT/$name.txt" 2>&1 ||
      echo "FAILED: $name"
    printf '%-4s %-10s %s | %s\n' "$lib" "$mode" "$(grep -h -o -E '^FOM: [0-9.]+ Gcell/s' "$OUT/$name.txt")" \
      "$(grep -h -E '^  exchange' "$OUT/$name.txt" | sed 's/^ *//')"
  done
done | tee "$OUT/steps.txt"
grep -q FAILED "$OUT/steps.txt" && status=1

halo_bench() { # halo_bench LIB LABEL MODES: one row per size and mode, as "LABEL mode size us/exch"
  mpi "$1" -np "$ranks" "build-gpu-$1/bench/stencil-halo-bench" --sizes "$sizes" --radius "$radius" \
    --modes "$3" --iterations 200 >"$OUT/halo-$2.txt" 2>&1 || echo "FAILED: halo bench $2"
  awk -v label="$2" '$2 ~ /^[0-9]+$/ && NF == 8 {print label, $1, $2, $6}' "$OUT/halo-$2.txt"
}
echo
echo "== stencil-halo-bench, R=$radius, $ranks ranks: us per exchange"
# Each row in a subshell of its own UCX settings: the baseline transports,
# then one setting changed at a time, gpu-aware only, all in the same call.
for row in "ob1|ob1|$paths|UCX_TLS=$ucx_baseline" "ucx|ucx|$paths|UCX_TLS=$ucx_baseline" "ucx|ucx:UCX_TLS-unset|gpu-aware|" \
  "ucx|ucx:UCX_RNDV_THRESH=8k|gpu-aware|UCX_RNDV_THRESH=8k" "ucx|ucx:UCX_RNDV_THRESH=1m|gpu-aware|UCX_RNDV_THRESH=1m" \
  "ucx|ucx:UCX_RNDV_SCHEME=put_zcopy|gpu-aware|UCX_RNDV_SCHEME=put_zcopy" \
  "ucx|ucx:UCX_RNDV_SCHEME=get_zcopy|gpu-aware|UCX_RNDV_SCHEME=get_zcopy" \
  "ucx|ucx:UCX_MEMTYPE_CACHE=n|gpu-aware|UCX_MEMTYPE_CACHE=n"; do
  IFS='|' read -r lib label modes setting <<<"$row"
  (
    [[ $label != *unset ]] || unset UCX_TLS
    [ -z "$setting" ] || export "${setting?}"
    halo_bench "$lib" "$label" "$modes"
  )
done | tee "$OUT/halo-rows.txt"
grep -q FAILED "$OUT/halo-rows.txt" && status=1

echo
echo "== us per exchange (rows: library and setting; columns: path at each local size)"
python3 - "$OUT/halo-rows.txt" <<'EOF'
import sys
rows, columns = {}, []
for line in open(sys.argv[1]):
    parts = line.split()
    if len(parts) != 4 or not parts[3].replace(".", "", 1).isdigit():
        continue  # a FAILED line, or a skipped path
    label, mode, size, us = parts
    column = f"{mode} {size}^3"
    if column not in columns:
        columns.append(column)
    rows.setdefault(label, {})[column] = us
width = max(len(r) for r in rows) if rows else 8
print(" " * width + "".join(f"{c:>18}" for c in columns))
for label, values in rows.items():
    print(f"{label:<{width}}" + "".join(f"{values.get(c, '-'):>18}" for c in columns))
EOF
# At most a few files come back from a node: the logs go as one archive.
(cd "$OUT" && tar czf logs.tgz ./*.txt ./*.log && find . -maxdepth 1 -type f ! -name logs.tgz -delete)
exit $status
