#!/usr/bin/env bash
# tests/check_spack_recipe.py passes the checkout, and fails, naming what
# drifted, on copies with one thing renamed: a CMake option the recipe
# passes (STENCIL_CUDA_ARCHS), an option in the recipe (STENCIL_NCCL), a
# back-end CMake no longer accepts (HIP).
# usage: spack_recipe_test.sh WORKDIR   (PYTHON: the interpreter, default python3)
set -euo pipefail
work=$1
root=$(cd "$(dirname "$0")/.." && pwd)
check=$root/tests/check_spack_recipe.py
py=${PYTHON:-python3}
fail() { echo "spack_recipe_test: $*"; exit 1; }
"$py" "$check" "$root" || fail "the checkout's recipe and CMake files disagree"
# plant NAME FILE SED: a copy of the CMake files and the recipe, one edit in FILE.
plant() {
  local copy=$work/$1
  rm -rf "$copy" && mkdir -p "$copy"
  (cd "$root" && cp --parents CMakeLists.txt ./*/CMakeLists.txt cmake/*.cmake spack/packages/stencil-miniapp/package.py "$copy")
  sed -i "$3" "$copy/$2"
  cmp -s "$root/$2" "$copy/$2" && fail "$1: the edit changed nothing"
  if "$py" "$check" "$copy" >"$copy.txt"; then cat "$copy.txt"; fail "$1: the check passed a renamed option"; fi
  grep -q "$4" "$copy.txt" || { cat "$copy.txt"; fail "$1: the check did not say '$4'"; }
  cat "$copy.txt"
}
plant cmake-option CMakeLists.txt 's/STENCIL_CUDA_ARCHS/STENCIL_NVIDIA_ARCHS/g' \
  "cuda_arch is meant for STENCIL_CUDA_ARCHS, which no CMake file declares"
plant recipe-option spack/packages/stencil-miniapp/package.py 's/"STENCIL_NCCL"/"STENCIL_USE_NCCL"/' \
  "passes STENCIL_USE_NCCL, which no CMake file declares"
plant backend CMakeLists.txt 's/STRINGS HOST HIP CUDA/STRINGS HOST CUDA/' "STENCIL_BACKEND=HIP, which the recipe passes"
echo "spack_recipe_test: every planted rename was caught"
