#!/usr/bin/env python3
"""The Spack recipe (spack/packages/stencil-miniapp/package.py) against the
CMake options it sets, read from both sides without Spack: every option
the recipe passes (self.define, self.define_from_variant) is declared in
the project's CMake files (option() or a CACHE variable), every variant
it declares is passed on, STENCIL_BACKEND's values are ones CMake
accepts, and the mixins' cuda_arch and amdgpu_target reach
STENCIL_CUDA_ARCHS and STENCIL_HIP_ARCHS. A renamed option on either side
is one line and exit 1.

usage: check_spack_recipe.py [ROOT]   (ROOT: the checkout, default this one)
"""
import ast
import os
import re
import sys

MIXIN_VARIANTS = {"cuda_arch": "STENCIL_CUDA_ARCHS", "amdgpu_target": "STENCIL_HIP_ARCHS"}


def cmake_options(root):
    """Every option() and CACHE variable in the project's CMake files, and
    the values STENCIL_BACKEND may take (its STRINGS property)."""
    files = [os.path.join(root, "CMakeLists.txt")]
    for folder in ("kernels", "halo", "miniapp", "bench", "tests", "cmake"):
        for name in sorted(os.listdir(os.path.join(root, folder))):
            if name == "CMakeLists.txt" or name.endswith(".cmake"):
                files.append(os.path.join(root, folder, name))
    options, backends = set(), set()
    for path in files:
        text = re.sub(r"#[^\n]*", "", open(path).read())
        options.update(re.findall(r"\boption\(\s*(\w+)", text))
        options.update(re.findall(r"\bset\(\s*(\w+)\s[^)]*\bCACHE\b", text))
        for values in re.findall(r"set_property\(\s*CACHE\s+STENCIL_BACKEND\s+PROPERTY\s+STRINGS\s+([^)]*)\)", text):
            backends.update(values.split())
    return options, backends


def recipe(path):
    """The recipe's variants, the CMake options it passes (option -> the
    variant it comes from, or None) and the string constants it assigns."""
    tree = ast.parse(open(path).read(), path)
    variants, passed, strings = set(), {}, set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            strings.add(node.value)
        if not isinstance(node, ast.Call):
            continue
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        args = [a.value for a in node.args if isinstance(a, ast.Constant)]
        if name == "variant" and args:
            variants.add(args[0])
        elif name == "define" and args:
            passed[args[0]] = None
        elif name == "define_from_variant" and len(args) >= 2:
            passed[args[0]] = args[1]
        elif name == "satisfies" and args:
            variants.update(re.findall(r"[+~]?(\w+)", args[0]))
    return variants, passed, strings, ast.unparse(tree)


def main(argv):
    root = os.path.abspath(argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
    path = os.path.join(root, "spack", "packages", "stencil-miniapp", "package.py")
    options, backends = cmake_options(root)
    variants, passed, strings, source = recipe(path)
    problems = []
    for option in sorted(passed):
        if option not in options:
            problems.append(f"the recipe passes {option}, which no CMake file declares")
    own = {v for v in variants if v in ("nccl", "bench")} | {v for v in passed.values() if v}
    for variant in sorted(own):
        if variant not in passed.values():
            problems.append(f"the recipe's variant {variant} reaches no CMake option")
    for variant, option in MIXIN_VARIANTS.items():
        if option not in options:
            problems.append(f"{variant} is meant for {option}, which no CMake file declares")
        if not re.search(rf'define\(\s*[\'"]{option}[\'"].*variants\[[\'"]{variant}[\'"]\]', source):
            problems.append(f"the recipe does not pass {variant} as {option}")
    if "STENCIL_BACKEND" in passed:
        for backend in ("CUDA", "HIP", "HOST"):
            if backend not in strings:
                problems.append(f"the recipe never chooses STENCIL_BACKEND={backend}")
            if backend not in backends:
                problems.append(f"STENCIL_BACKEND={backend}, which the recipe passes, is not among CMake's "
                                f"values ({' '.join(sorted(backends)) or 'none found'})")
    for line in problems:
        print(f"check_spack_recipe: {line}")
    if problems:
        return 1
    print(f"check_spack_recipe: the recipe's {len(passed)} options are CMake's: {' '.join(sorted(passed))}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
