#!/usr/bin/env bash
# one device call: build now + before (i36-timeline = 5a70d66 + timeline), checks, timings, timelines
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/out}; R=$OUT/r; mkdir -p $R
source tools/offline-deps.sh
export PATH=/usr/local/cuda/bin:$PATH OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0
mkdir -p /tmp/gpumpi && tar xJf .deps/ompi-4.1.4-cuda-install.tar.xz -C /tmp/gpumpi
MPI_HOME=/tmp/gpumpi/install; export PATH=$MPI_HOME/bin:$PATH
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader | tee $R/gpu.txt
date -u +%FT%TZ | tee $R/date.txt
mkdir -p /tmp/before && tar xzf results/dev/before.tar.gz -C /tmp/before
b() { cmake -S $1 -B $2 -DSTENCIL_BACKEND=CUDA -DSTENCIL_CUDA_ARCHS=90 -DSTENCIL_BUILD_TESTS=OFF -DSTENCIL_RESOURCE_REPORT=ON -DMPI_HOME=$MPI_HOME "${prefix[@]}" > $R/$3-configure.log 2>&1 && cmake --build $2 -j16 --target stencil-miniapp $4 > $R/$3-build.log 2>&1 || { echo "BUILD $3 FAILED"; grep -B2 -A10 error $R/$3-build.log | head -40; }; }
t0=$SECONDS
b . build-now now "" &
b /tmp/before /tmp/build-before before "" &
wait; echo "builds $((SECONDS-t0)) s"
grep -c "Found MPI_CXX: $MPI_HOME" $R/now-configure.log
export LD_LIBRARY_PATH=$MPI_HOME/lib:${LD_LIBRARY_PATH:-}
MR="$MPI_HOME/bin/mpirun --mca pml ob1"
NOW=build-now/miniapp/stencil-miniapp; BEF=/tmp/build-before/miniapp/stencil-miniapp
# --- checks (must be bitwise); planted bugs must fail
chk() { local exp=$1; shift; out=$($MR "$@" --check --quiet 2>&1); rc=$?; line=$(echo "$out" | grep -E "^check:|error|stencil-miniapp:" | head -1); echo "[$([ $rc = $exp ] || [ $exp = F -a $rc != 0 ] && echo ok || echo BAD)] rc=$rc $* :: $line"; }
{
for g in on off; do for o in on off; do
 chk 0 -np 1 $NOW --grid 96,80,72 --periodic x,y,z --graphs $g --overlap $o --steps 30
 chk 0 -np 1 $NOW --grid 96,80,72 --periodic x,y,z --graphs $g --overlap $o --source 1,1,1 --precision fp64 --radius 8 --steps 30
 chk F -np 1 $NOW --grid 96,80,72 --periodic x,y,z --graphs $g --overlap $o --source 1,1,1 --inject-fault short-fused-pack --steps 30
done; done
for k in 1 2; do for o in on off; do
 chk 0 -np 2 $NOW --grid 96,80,72 --procs 2,1,1 --periodic x,y,z --comm gpu-aware --halo-depth $k --overlap $o --source 1,1,1 --steps 30
 chk 0 -np 2 $NOW --grid 96,80,72 --procs 2,1,1 --comm staged --halo-depth $k --overlap $o --source 47,40,36 --steps 30
 chk 0 -np 1 $NOW --grid 96,80,72 --periodic x,y,z --comm nccl --halo-depth $k --overlap $o --source 1,1,1 --steps 30
done; done
for o in on off; do
chk 0 -np 2 $NOW --grid 96,80,72 --procs 1,2,1 --periodic x,y,z --graphs on --overlap $o --steps 30
chk 0 -np 2 $NOW --grid 96,80,72 --procs 1,1,2 --periodic x,y,z --graphs on --overlap $o --steps 30
chk 0 -np 2 $NOW --grid 96,80,72 --procs 2,1,1 --periodic x,y,z --poison-halo --overlap $o --steps 30
chk 0 -np 2 $NOW --grid 96,80,72 --procs 2,1,1 --periodic x,y,z --source 1,1,1 --halo-depth 1 --overlap $o --steps 30
chk F -np 2 $NOW --grid 96,80,72 --procs 2,1,1 --overlap $o --source 47,40,36 --halo-depth 1 --inject-fault short-fused-pack --steps 30
done
chk F -np 2 $NOW --grid 96,80,72 --procs 2,1,1 --overlap on --halo-depth 1 --source 47,40,36 --inject-fault early-boundary --steps 30
chk 0 -np 1 $NOW --grid 96,80,72 --periodic x,y,z --steps 30
} 2>&1 | tee $R/checks.txt
echo "checks done $((SECONDS-t0)) s"
# --- timings: R4 fp32, medians of 3 alternating, step over comm none, both in one call
for n in 512 256 128; do for rep in 1 2 3; do
 for v in bef-none bef-per now-none now-per now-per-on now-per-off; do
  app=$NOW; [[ $v == bef-* ]] && app=$BEF
  case $v in *none) a="--comm none";; *per) a="--periodic x,y,z";; *per-on) a="--periodic x,y,z --overlap on";; *per-off) a="--periodic x,y,z --overlap off";; esac
  $MR -np 1 $app --local $n,$n,$n --radius 4 --steps 200 --warmup 20 $a --quiet --label $v --report $R/$v-$n-$rep.json > $R/$v-$n-$rep.txt 2>&1 || echo "FAILED $v $n"
 done; done; done
python3 - $R <<'PY'
import json,glob,sys,statistics as st,collections
d=collections.defaultdict(list)
for f in glob.glob(sys.argv[1]+"/*-*-[123].json"):
    r=json.load(open(f)); v,n=r["label"],r["grid"][0]
    d[(n,v)].append(r["phases_ms"]["step"]["max"])
for n in (512,256,128):
    m={v:st.median(d[(n,v)]) for (nn,v) in d if nn==n}
    print(n, " ".join(f"{v}={m[v]:.4f}" for v in sorted(m)), f"| before {m['bef-per']/m['bef-none']:.3f}x now {m['now-per']/m['now-none']:.3f}x on {m['now-per-on']/m['now-none']:.3f}x off {m['now-per-off']/m['now-none']:.3f}x")
PY
grep -h "overlap" $R/now-per-512-1.txt | head -3
echo "timings done $((SECONDS-t0)) s"
# --- timelines
for n in 256 128; do for o in on off; do
 $MR -np 1 $NOW --local $n,$n,$n --radius 4 --steps 200 --warmup 20 --periodic x,y,z --overlap $o --quiet --timeline $R/tl-now-$o-$n.json > /dev/null 2>&1 || echo "tl now failed"
done
 $MR -np 1 $BEF --local $n,$n,$n --radius 4 --steps 200 --warmup 20 --periodic x,y,z --quiet --timeline $R/tl-before-$n.json > /dev/null 2>&1 || echo "tl before failed"
done
$MR -np 2 $NOW --local 256,256,256 --procs 2,1,1 --periodic x,y,z --radius 4 --steps 100 --quiet --timeline $R/tl-now-np2.json > $R/np2.txt 2>&1 || echo "tl np2 failed"
python3 tools/resource-report.py cuda $R/now-build.log > $R/resources-now.txt 2>&1; tail -3 $R/resources-now.txt
echo "all done $((SECONDS-t0)) s"
tar czf $OUT/res.tgz -C $OUT r
