#!/usr/bin/env bash
# Record: ran on 2026-11-26 as it stands; new call scripts source tools/gpu/common.sh.
# Experiment, kept as it ran (from the repository root of a 4-GPU node, OUT set):
# This tree against a copy whose exchange skips the unpack of p's received faces
# (results wrong, timing only), 4 GPUs, 512^3 per GPU, 2,2,1 periodic, ob1, overlap on.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
source tools/offline-deps.sh
nvidia-smi -L
M=/tmp/gpumpi; mkdir -p $M && tar xJf .deps/ompi-4.1.4-cuda-install.tar.xz -C $M
mkdir -p /tmp/exp && tar cf - --exclude='./build*' --exclude=./.deps --exclude=./.git . | tar xf - -C /tmp/exp
sed -i 's|    if (unpack_table_\[0\].count) launch_unpack_faces<T>(field, unpack_table_\[0\], stream_);|    // experiment: no unpack of p|' /tmp/exp/halo/halo_exchange.cpp
grep -c "experiment: no unpack" /tmp/exp/halo/halo_exchange.cpp
b() { PATH=$M/install/bin:$PATH cmake -S "$1" -B "$2" -G Ninja -DSTENCIL_BACKEND=CUDA -DSTENCIL_BUILD_TESTS=OFF -DSTENCIL_BUILD_BENCH=OFF -DMPI_HOME=$M/install -DSTENCIL_REVISION="$3" "${prefix[@]}" >"$OUT/$3.log" 2>&1 && cmake --build "$2" -j32 --target stencil-miniapp >>"$OUT/$3.log" 2>&1 || tail -20 "$OUT/$3.log"; }
t0=$(date +%s); b . build-exp-now now & b /tmp/exp build-exp-nounpack nounpack & wait; echo "builds $(( $(date +%s)-t0 )) s"
run() { $M/install/bin/mpirun --mca pml ob1 -x LD_LIBRARY_PATH -np "$2" "build-exp-$1/miniapp/stencil-miniapp" --radius 4 --warmup 20 --quiet --report "$OUT/$3.json" "${@:4}" >"$OUT/$3.txt" 2>&1; python3 -c "
import json;j=json.load(open('$OUT/$3.json'));p=j['phases_ms'];print('$3', 'step %.4f'%p['step']['max'], 'interior %.3f unpack %.3f boundary %.3f pack %.3f'%(p['interior']['avg'],p['unpack']['avg'],p['boundary']['avg'],p['pack']['avg']))"; }
run now 1 one-512 --local 512,512,512 --steps 1600 --comm none
for r in 1 2 3; do for t in now nounpack; do
  run $t 4 r$r-$t --local 512,512,512 --procs 2,2,1 --periodic x,y,z --comm gpu-aware --overlap on --steps 2000
done; done
cd $OUT && tar czf exp.tgz *.json *.txt && rm -f *.json *.txt
