# shellcheck shell=bash
# Open MPI over UCX beside Open MPI's ob1 and NCCL, on the GPUs of one
# node: the halo paths a user meets on an Open MPI 5 site. It needs no
# package archive, and both CUDA-aware Open MPI builds in .deps/
# (tools/prepare-offline-deps.sh OB1_ARCHIVE UCX_ARCHIVE).
#   1. the CUDA mini-app and stencil-halo-bench built against each library
#      (the two builds side by side);
#   2. what each library says of CUDA buffers (tools/mpi-gpu-probe.c);
#   3. per library and halo path (gpu-aware, staged, nccl): --check bit for
#      bit against one domain on held-out splits, radii, precisions, depths;
#   4. stencil-halo-bench per face size, per library and path;
#   5. stencil-halo-bench through UCX under each UCX setting that matters
#      (UCX_TLS, UCX_RNDV_THRESH, UCX_RNDV_SCHEME, UCX_MEMTYPE_CACHE).
# Prints a table last (tools/report-table.py ucx); logs go to the results
# folder $OUT (default .out). Ranks take the node's GPUs in turn: on a node
# of one GPU they share it, and the halos cross CUDA IPC inside the device,
# not a link between GPUs.
#
# usage: tools/gpu.sh ucx [--ranks 2] [--sizes 64,128,256] [--radius 4]

ucx_settings() { echo ranks sizes radius; } # what --dry-run prints
ucx_options() {
  ranks=2 sizes=64,128,256 radius=4
  while [ $# -gt 0 ]; do
    case "$1" in
      --ranks) value "$1" $#; ranks=$2; shift ;;
      --sizes) value "$1" $#; sizes=$2; shift ;;
      --radius) value "$1" $#; radius=$2; shift ;;
      *) other_option "$1" ;;
    esac
    shift
  done
  positive "$ranks" --ranks
}

ucx_main() {
  need_mpi ob1 ucx
  OUT=${OUT:-$PWD/.out}
  mkdir -p "$OUT"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"
  # NCCL takes one GPU per rank: where ranks share one, its path is skipped.
  paths=gpu-aware,staged,nccl
  if [ "$(nvidia-smi -L | wc -l)" -lt "$ranks" ]; then
    paths=gpu-aware,staged
    echo "nccl skipped: $ranks ranks on $(nvidia-smi -L | wc -l) GPU(s), and NCCL needs a GPU per rank"
  fi
  # UCX's baseline transports are those of one node's GPUs; the settings sweep varies them.
  ucx_baseline=cuda_copy,cuda_ipc,sm,self
  ucx_builds
  status=0
  export UCX_TLS=$ucx_baseline # the settings sweep varies it
  local lib
  for lib in ob1 ucx; do
    echo "== $lib: $(mpi "$lib" -np 1 "build-gpu-$lib/mpi-gpu-probe" | grep -E "library|Query_cuda" | paste -sd';' -)"
  done | tee "$OUT/probe.txt"
  ucx_checks
  ucx_steps
  ucx_halo
  echo
  echo "== us per exchange (rows: library and setting; columns: path at each local size)"
  python3 tools/report-table.py ucx "$OUT/halo-rows.txt"
  # At most a few files come back from a node: the logs go as one archive.
  (cd "$OUT" && tar czf logs.tgz ./*.txt ./*.log && find . -maxdepth 1 -type f ! -name logs.tgz -delete)
  exit $status
}

# ucx_builds: the mini-app, stencil-halo-bench and the probe against each
# library, side by side, half the cores each.
ucx_builds() {
  local lib job failed=0
  for lib in ob1 ucx; do
    (
      unpack_mpi "$lib" || exit 1
      rm -rf "build-gpu-$lib" # a cached MPI of an earlier configure would outlive -DMPI_HOME
      # shellcheck disable=SC2034 # build_tree's cores
      jobs=$(($(nproc) / 2))
      build_tree --mpi "$(mpi_root "$lib")" . "build-gpu-$lib" "$OUT/build-$lib" "stencil-miniapp stencil-halo-bench" &&
        require_mpi_from "$OUT/build-$lib-configure.log" "$(mpi_root "$lib")/install" &&
        "$(mpi_root "$lib")/install/bin/mpicc" tools/mpi-gpu-probe.c -o "build-gpu-$lib/mpi-gpu-probe" \
          2>>"$OUT/build-$lib-build.log"
    ) &
  done
  for job in $(jobs -p); do wait "$job" || failed=1; done
  [ "$failed" = 0 ] || exit 1
}

mpi() { # mpi LIB ARGS...: mpirun of that library with its pml and the UCX settings exported
  local lib=$1 flags=(--mca pml ob1) passed=() v
  shift
  [ "$lib" = ob1 ] || flags=(--mca pml ucx --mca pml_ucx_tls any --mca pml_ucx_devices any)
  for v in $(env | grep -o -E '^UCX_[A-Z_]+'); do passed+=(-x "$v"); done
  LD_LIBRARY_PATH=$(mpi_root "$lib")/install/lib:${LD_LIBRARY_PATH:-} "$(mpi_root "$lib")/install/bin/mpirun" \
    "${flags[@]}" "${passed[@]}" --oversubscribe "$@"
}

ucx_checks() {
  echo
  echo "== --check bit for bit against one domain (held-out splits, radii, precisions, depths)"
  local cases=("1,1,$ranks|6|fp32|1" "$ranks,1,1|3|fp64|1" "1,$ranks,1|8|fp32|2" "$ranks,1,1|5|fp32|3")
  local lib mode spec procs r precision depth name line
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
  ! grep -q -v "bitwise equal" "$OUT/checks.txt" || status=1 # the loop ran in the pipe's subshell
}

ucx_steps() {
  echo
  echo "== the mini-app, 128^3 per rank, $ranks ranks: each library and path against --comm none"
  local lib mode name
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
  ! grep -q FAILED "$OUT/steps.txt" || status=1
}

halo_bench() { # halo_bench LIB LABEL MODES: one row per size and mode, as "LABEL mode size us/exch"
  mpi "$1" -np "$ranks" "build-gpu-$1/bench/stencil-halo-bench" --sizes "$sizes" --radius "$radius" \
    --modes "$3" --iterations 200 >"$OUT/halo-$2.txt" 2>&1 || echo "FAILED: halo bench $2"
  awk -v label="$2" '$2 ~ /^[0-9]+$/ && NF == 8 {print label, $1, $2, $6}' "$OUT/halo-$2.txt"
}

# ucx_halo: each row in a subshell of its own UCX settings: the baseline
# transports, then one setting changed at a time, gpu-aware only.
ucx_halo() {
  echo
  echo "== stencil-halo-bench, R=$radius, $ranks ranks: us per exchange"
  local row lib label modes setting
  for row in "ob1|ob1|$paths|UCX_TLS=$ucx_baseline" "ucx|ucx|$paths|UCX_TLS=$ucx_baseline" \
    "ucx|ucx:UCX_TLS-unset|gpu-aware|" \
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
  ! grep -q FAILED "$OUT/halo-rows.txt" || status=1
}
