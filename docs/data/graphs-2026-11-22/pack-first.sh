# The 2-GPU graphs-on/off comparison of two-gpu.sh, at the sizes that
# showed graphs slower, after a change (kept as it ran; see PERFORMANCE.md
# history item 23).
set -uo pipefail
export PATH=/tmp/gpumpi/install/bin:/usr/local/cuda/bin:$PATH OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0
export LD_LIBRARY_PATH=/tmp/gpumpi/install/lib:$PWD/.deps/root/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
cmake --build build-two -j32 --target stencil-miniapp >/dev/null 2>&1 || { echo build failed; exit 1; }
app=build-two/miniapp/stencil-miniapp
mkdir -p $OUT/runs
for rep in 1 2; do
for local in 128,128,128 256,256,128 256,256,256 512,512,512; do
  for mode in gpu-aware nccl; do
    for g in on off; do
      mpirun --mca pml ob1 -np 2 $app --local $local --procs 1,1,2 --steps 300 --warmup 20 --comm $mode --graphs $g --quiet \
        --report "$OUT/runs/f$rep-$mode-${local//,/x}-$g.json" >/dev/null 2>&1 || echo "FAILED $mode $local $g"
    done
  done
done
done
mpirun --mca pml ob1 -np 2 $app --grid 192,160,176 --procs 1,1,2 --steps 40 --comm gpu-aware --graphs on --check --quiet 2>&1 | grep "^check"
mpirun --mca pml ob1 -np 2 $app --grid 192,160,176 --procs 2,1,1 --steps 40 --comm nccl --graphs on --check --quiet 2>&1 | grep "^check"
cd $OUT && tar czf exp2.tgz runs && rm -rf runs
