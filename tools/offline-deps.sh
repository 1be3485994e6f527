# Sourced by the GPU-node scripts: on a node without a package archive,
# GoogleTest, Google Benchmark, nlohmann-json, zlib and stb come from .deps/
# (tools/prepare-offline-deps.sh). Sets `prefix`, the CMake arguments that
# find them (empty when .deps/ is absent), and extends LD_LIBRARY_PATH.
# shellcheck shell=bash disable=SC2034 # prefix is read by the scripts that source this file
prefix=() revision_args=()
if [ -d .deps/root/usr ]; then
  prefix=(-DCMAKE_PREFIX_PATH="$PWD/.deps/root/usr")
  export LD_LIBRARY_PATH="$PWD/.deps/root/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}"
fi

# require_mpi_from CONFIGURE_LOG ROOT: fails, saying which MPI CMake took,
# unless it took the one under ROOT. CMake falls back to the system MPI when
# the named one's wrappers fail (an archive unpacked away from its
# --prefix), and the runs would then time another library than they name.
require_mpi_from() {
  grep -q "Found MPI_CXX: $2" "$1" && return 0
  echo "$(basename "$0"): CMake did not take the MPI under $2: $(grep "Found MPI_CXX" "$1")" >&2
  return 1
}

# unpack_revision REV DIR: REV's tree (git archive) into DIR, outside this
# checkout, and sets `revision_args`: the CMake argument that names REV in
# its reports. A tree unpacked inside the checkout would name the
# checkout's revision instead; trees older than STENCIL_REVISION name none.
unpack_revision() {
  rm -rf "$2" && mkdir -p "$2" && git archive "$1" | tar x -C "$2" || return 1
  revision_args=(-DSTENCIL_REVISION="$(git rev-parse --short=12 "$1")")
}
