# Sourced by the GPU-node scripts: on a node without a package archive,
# GoogleTest, Google Benchmark, nlohmann-json, zlib and stb come from .deps/
# (tools/prepare-offline-deps.sh). Sets `prefix`, the CMake arguments that
# find them (empty when .deps/ is absent), and extends LD_LIBRARY_PATH.
# shellcheck shell=bash disable=SC2034 # prefix is read by the scripts that source this file
prefix=()
if [ -d .deps/root/usr ]; then
  prefix=(-DCMAKE_PREFIX_PATH="$PWD/.deps/root/usr")
  export LD_LIBRARY_PATH="$PWD/.deps/root/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}"
fi
