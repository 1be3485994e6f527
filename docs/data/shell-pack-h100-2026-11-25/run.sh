#!/usr/bin/env bash
# One H100 call on the code as it stands: --check with --pack fused/separate/auto
# (and planted bugs that must fail), then the issue's shell table: R4 fp32,
# step over --comm none, medians of 3 alternating runs, default / --overlap on
# (pack auto) / on fused / on separate.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/out}; R=$OUT/final; mkdir -p $R
source tools/offline-deps.sh
export PATH=/usr/local/cuda/bin:$PATH OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0
mkdir -p /tmp/gpumpi && tar xJf .deps/ompi-4.1.4-cuda-install.tar.xz -C /tmp/gpumpi
MPI_HOME=/tmp/gpumpi/install; export PATH=$MPI_HOME/bin:$PATH LD_LIBRARY_PATH=$MPI_HOME/lib:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader | tee $R/gpu.txt
date -u +%FT%TZ | tee $R/date.txt
t0=$SECONDS
cmake -S . -B build-now -DSTENCIL_BACKEND=CUDA -DSTENCIL_CUDA_ARCHS=90 -DSTENCIL_BUILD_TESTS=OFF -DSTENCIL_BUILD_BENCH=OFF \
  -DMPI_HOME=$MPI_HOME "${prefix[@]}" > $R/configure.log 2>&1 && cmake --build build-now -j16 --target stencil-miniapp > $R/build.log 2>&1 ||
  { echo BUILD FAILED; grep -B2 -A10 error $R/build.log | head -40; exit 1; }
echo "built $((SECONDS-t0)) s"
MR="$MPI_HOME/bin/mpirun --mca pml ob1"; A=build-now/miniapp/stencil-miniapp
chk() { local exp=$1; shift; out=$($MR "$@" --check --quiet 2>&1); rc=$?; line=$(echo "$out" | grep -E "^check:|stencil-miniapp:" | head -1); echo "[$([ $rc = $exp ] || [ $exp = F -a $rc != 0 ] && echo ok || echo BAD)] rc=$rc $* :: $line"; }
{
for p in fused separate auto; do
 chk 0 -np 1 $A --grid 96,80,72 --periodic x,y,z --overlap on --pack $p --source 1,1,1 --steps 30
 chk 0 -np 1 $A --grid 96,80,72 --periodic x,y,z --overlap on --pack $p --graphs off --precision fp64 --radius 8 --steps 30
 chk 0 -np 2 $A --grid 96,80,72 --procs 2,1,1 --periodic x,y,z --comm gpu-aware --overlap on --pack $p --source 1,1,1 --steps 30
 chk 0 -np 2 $A --grid 96,80,72 --procs 1,1,2 --periodic x,y,z --comm staged --overlap on --pack $p --steps 30
 chk 0 -np 1 $A --grid 96,80,72 --periodic x,y,z --comm nccl --overlap on --pack $p --steps 30
 chk 0 -np 2 $A --grid 96,80,72 --procs 1,2,1 --periodic x,y,z --pack $p --steps 30
done
chk F -np 2 $A --grid 96,80,72 --procs 2,1,1 --overlap on --pack fused --source 47,40,36 --inject-fault short-fused-pack --steps 30
chk F -np 2 $A --grid 96,80,72 --procs 2,1,1 --overlap on --pack separate --source 47,40,36 --inject-fault drop-face --steps 30
$MR -np 2 $A --grid 96,80,72 --procs 2,1,1 --periodic x,y,z --steps 30 --check --report $R/check.json > $R/check.txt 2>&1
python3 -c "import json; d=json.load(open('$R/check.json')); print('report:', d['check'], d['fused_pack'], d['pack_reason'], '|', d['overlap_reason'])"
} 2>&1 | tee $R/checks.txt
echo "checks done $((SECONDS-t0)) s"
for n in 512 256 128; do for rep in 1 2 3; do
 for v in none default on fused separate; do
  case $v in none) a="--comm none";; default) a="--periodic x,y,z";; on) a="--periodic x,y,z --overlap on";;
   fused) a="--periodic x,y,z --overlap on --pack fused";; separate) a="--periodic x,y,z --overlap on --pack separate";; esac
  $MR -np 1 $A --local $n,$n,$n --radius 4 --steps 200 --warmup 20 $a --quiet --label $v --report $R/$v-$n-$rep.json > $R/$v-$n-$rep.txt 2>&1 || echo "FAILED $v $n"
 done; done; done
python3 - $R <<'PY'
import json,glob,sys,statistics as st,collections
d=collections.defaultdict(list); why={}
for f in glob.glob(sys.argv[1]+"/*-*-[123].json"):
    r=json.load(open(f)); v,n=r["label"],r["grid"][0]
    d[(n,v)].append(r["phases_ms"]["step"]["max"]); why[(n,v)]=(r["overlap_reason"], r["fused_pack"], r["pack_reason"])
for n in (512,256,128):
    m={v:st.median(d[(n,v)]) for (nn,v) in d if nn==n}
    print(n, "none %.4f ms |" % m["none"], " ".join(f"{v} {m[v]/m['none']:.3f}x" for v in ("default","on","fused","separate")),
          "| spread", " ".join(f"{v} {min(d[(n,v)])/m['none']:.3f}-{max(d[(n,v)])/m['none']:.3f}" for v in ("default","on")))
    print("   default:", why[(n,"default")][0], "| on:", why[(n,"on")][1], why[(n,"on")][2])
PY
echo "all done $((SECONDS-t0)) s"
tar czf $OUT/final.tgz -C $OUT final
