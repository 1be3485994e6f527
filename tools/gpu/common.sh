# shellcheck shell=bash
# The preamble of tools/gpu.sh, sourced by it: the options' checks, the
# environment of every part, the CUDA-aware MPI builds of .deps/ and one
# function that configures and builds a tree.

# header FILE: the comment block at the top of FILE (after its first line),
# less the comment marks: the usage that --help prints.
header() {
  awk 'NR > 1 && !/^#/ {exit} NR > 1 && !/shellcheck/ {sub(/^# ?/, ""); print}' "$1"
}

# die MESSAGE: one line on stderr, exit 2.
die() {
  echo "gpu.sh${part:+ $part}: $*" >&2
  exit 2
}

# value OPTION COUNT: in a part's option loop (COUNT is $#), dies unless a
# value follows OPTION.
value() {
  [ "$2" -ge 2 ] || die "$1 needs a value (tools/gpu.sh $part --help)"
}

# other_option ARG: --help prints the part's usage and exits 0; anything
# else is an unknown option.
other_option() {
  case $1 in
    -h | --help) header "tools/gpu/$part.sh"; exit 0 ;;
    *) die "unknown option '$1' (tools/gpu.sh $part --help)" ;;
  esac
}

# positive VALUE OPTION: dies unless VALUE is a whole number > 0.
positive() {
  [[ $1 =~ ^[1-9][0-9]*$ ]] || die "$2 takes a positive number, not '$1'"
}

# gpu_env: what every part runs under: CUDA on PATH, Open MPI allowed to run
# as root, never NVLink multicast on shared machines, and the dependencies
# of .deps/ (tools/offline-deps.sh: `prefix`, require_mpi_from,
# unpack_revision).
gpu_env() {
  export PATH=/usr/local/cuda/bin:$PATH OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  export NCCL_NVLS_ENABLE=0
  # shellcheck source=tools/offline-deps.sh
  source tools/offline-deps.sh
}

# The CUDA-aware Open MPI builds of .deps/ (tools/prepare-offline-deps.sh):
# ob1 (Open MPI 4.1.4) and ucx (Open MPI 5 over UCX). Each archive unpacks
# where it was configured to live (its --prefix, less /install): its
# wrappers find their data only there.
mpi_archive() { case $1 in ob1) echo .deps/ompi-4.1.4-cuda-install.tar.xz ;; ucx) echo .deps/ompi-ucx-cuda-install.tar.xz ;; esac; }
mpi_root() { case $1 in ob1) echo /tmp/gpumpi ;; ucx) echo /tmp/gpumpi5 ;; esac; }
has_mpi() { [ -f "$(mpi_archive "$1")" ]; }
# unpack_mpi LIB: that library under $(mpi_root LIB)/install.
unpack_mpi() {
  mkdir -p "$(mpi_root "$1")" && tar xJf "$(mpi_archive "$1")" -C "$(mpi_root "$1")"
}
# need_mpi LIB...: dies, naming the archive, unless each is in .deps/.
need_mpi() {
  local lib
  for lib in "$@"; do
    has_mpi "$lib" || die "$(mpi_archive "$lib") is missing (tools/prepare-offline-deps.sh)"
  done
}

# use_mpi LIB: LIB's CUDA-aware Open MPI (ob1 or ucx) unpacked where it
# lives, its libraries on LD_LIBRARY_PATH, and its install folder in
# $mpihome; dies, naming the archive, where .deps/ lacks it.
use_mpi() {
  need_mpi "$1"
  [ -d "$(mpi_root "$1")/install" ] || unpack_mpi "$1"
  mpihome=$(mpi_root "$1")/install
  export LD_LIBRARY_PATH=$mpihome/lib:${LD_LIBRARY_PATH:-}
}

# patched_tree DIR PATCH [-R]: this checkout's files in DIR (made anew,
# from the files rather than git, whose index a copied checkout may not
# have kept up to date), with PATCH applied (a path relative to the
# checkout; -R: reversed, the tree before a change). Status 1 where the
# patch does not apply.
patched_tree() {
  rm -rf "$1" && mkdir -p "$1" &&
    tar cf - --exclude='./build*' --exclude=./.deps --exclude=./.git . | tar xf - -C "$1" &&
    (cd "$1" && patch ${3:+"$3"} -p1 -s <"$OLDPWD/$2")
}

# build_tree [--mpi ROOT] SOURCE BUILD_DIR LOG "TARGETS" [CMAKE_ARGS...]:
# configures BUILD_DIR from SOURCE (the CUDA back-end for
# $STENCIL_CUDA_ARCHS, no tests, the dependencies of .deps/, unless
# CMAKE_ARGS say otherwise) and builds TARGETS ("" for all) with $jobs jobs
# (default all cores). Logs LOG-configure.log and LOG-build.log; on a
# failure their ends on stderr, and status 1. --mpi ROOT: against the MPI
# under ROOT/install, its wrappers first on PATH.
build_tree() {
  local mpi=() path=$PATH libs=${LD_LIBRARY_PATH:-} targets=()
  if [ "$1" = --mpi ]; then
    mpi=(-DMPI_HOME="$2/install") path=$2/install/bin:$PATH libs=$2/install/lib:$libs
    shift 2
  fi
  local src=$1 dir=$2 log=$3
  [ -z "$4" ] || read -ra targets <<<"--target $4"
  shift 4
  if ! PATH=$path LD_LIBRARY_PATH=$libs cmake -S "$src" -B "$dir" -DSTENCIL_BACKEND=CUDA \
    -DSTENCIL_CUDA_ARCHS="${STENCIL_CUDA_ARCHS:-90}" -DSTENCIL_BUILD_TESTS=OFF "${mpi[@]}" "${prefix[@]}" "$@" \
    >"$log-configure.log" 2>&1; then
    echo "gpu.sh: configuring $dir from $src failed ($log-configure.log):" >&2
    tail -20 "$log-configure.log" >&2
    return 1
  fi
  if ! PATH=$path LD_LIBRARY_PATH=$libs cmake --build "$dir" -j"${jobs:-$(nproc)}" "${targets[@]}" \
    >"$log-build.log" 2>&1; then
    echo "gpu.sh: building $dir failed ($log-build.log):" >&2
    grep -B2 -A8 -E "error|Error" "$log-build.log" | head -60 >&2
    return 1
  fi
}

# revision_line [AGAINST]: the tree's revision, and the one it is set against.
revision_line() {
  echo "revision: $(git describe --always --dirty --abbrev=12 2>/dev/null || echo unknown)${1:+ against $1}"
}
