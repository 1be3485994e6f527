#!/usr/bin/env bash
# CI: the HOST back-end built against Debian's MPICH (libmpich-dev) in its
# own folder beside Open MPI's, and the MPI subset run under MPICH's
# mpiexec (Hydra): decomposition and periodic --check at 1-8 ranks, deep
# halos, restart across rank counts, the stop signals, the OpenMP teams.
# Frontier and LUMI run Cray MPICH; this keeps the MPICH family working.
# Builds only the mini-app, which is all the subset runs.
# usage: tools/ci-mpich.sh [BUILD_DIR]   (default build-mpich)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-mpich}
start=$SECONDS
tools/install-deps.sh host mpich
# Debian's alternatives keep mpicxx and mpiexec on Open MPI: name MPICH's own.
cmake -S . -B "$build" -G Ninja -DSTENCIL_BACKEND=HOST -DSTENCIL_BUILD_BENCH=OFF \
  -DMPI_CXX_COMPILER=/usr/bin/mpicxx.mpich -DMPIEXEC_EXECUTABLE=/usr/bin/mpiexec.mpich >/dev/null
grep -q '^MPI_CXX_LIB_NAMES:.*mpich' "$build/CMakeCache.txt" ||
  { echo "ci-mpich: CMake found another MPI:"; grep '^MPI_CXX_LIB_NAMES' "$build/CMakeCache.txt"; exit 1; }
cmake --build "$build" -j"$(nproc)" --target stencil-miniapp
tools/check-mpi-link.sh "$build/miniapp/stencil-miniapp" mpich
# The subset, by name (tests/CMakeLists.txt registers them for both MPIs).
subset='^(mpi_check_np[1-8]_R4_overlap_(on|off)|mpi_check_fp64_np[1-8]_R8|mpi_check_periodic_np[1-8]_R[48]'
subset+='|mpi_check_periodic_(x|yz)_procs_.*|mpi_check_depth[2-4]_.*|mpi_check_.*catches_.*'
subset+='|restart_equals_uninterrupted|signals_stop_with_a_checkpoint|omp_threads_sized_per_node)$'
ctest --test-dir "$build" -R "$subset" -j"$(nproc)" --output-on-failure
version=$(/usr/bin/mpiexec.mpich --version | awk '/Version:/ {print $2; exit}')
echo "ci-mpich: built and ran the MPI subset under MPICH $version in $((SECONDS - start)) s"
