#!/usr/bin/env python3
"""Per-kernel resource table from a verbose GPU build log; fails on spills.

Reads the log of a build configured with -DSTENCIL_RESOURCE_REPORT=ON:
  HIP  (clang -Rpass-analysis=kernel-resource-usage): VGPRs, SGPRs, LDS,
       scratch and occupancy for each kernel and target;
  CUDA (nvcc -Xptxas -v): registers, stack frame, spills, shared memory.
Prints one table and exits 1 if any kernel uses scratch memory or spills
vector registers (CUDA: any stack or spill), since a kernel that spills to
memory is slow enough to be a bug. On AMD, SGPR spills are written into VGPR
lanes (v_writelane), not memory; they are flagged "sgpr-lanes" but pass.

A few kernels may spill by design, listed in EXPECTED_SPILLS with the reason;
it is flagged "expected" and passes, and any other kernel that spills fails.

usage: resource-report.py {hip|cuda} BUILD_LOG [LABEL]
  LABEL names the build in the summary line (e.g. "gfx942 (hipcc 7, ROCm 6.4)");
  HIP logs carry no target name, so build one target per log for per-target tables.
"""
import re
import subprocess
import sys

from tool_errors import run


# kernel (as shown in the table) -> why its spill is the point, not a bug.
EXPECTED_SPILLS = {
    "series_kernel<double, 16, true>":
        "the Laplacian series' step 3 at m = 16 without launch bounds: hipcc assumes blocks of"
        " 1024 threads, caps VGPRs at 128 and spills, as the series found; step 4 (launch bounds)"
        " is the cure it demonstrates",
}
# R = 2 with 4 rows per thread, in the boundary slabs' table kernel: at the
# 255-register cap before the fused pack, whose face-sink copy then spills
# 16-52 bytes on sm_90. Not a default shape (slabs run 2 rows); a tuner or
# --rows 4 choosing it pays that (performance-history.md, item 34).
for _name in ("wave_table_kernel<2, double, 4, false>", "wave_table_kernel<2, double, 4, true>",
              "wave_table_kernel<2, float, 4, true>"):
    EXPECTED_SPILLS[_name] = ("R = 2 at 4 rows per thread, at the register cap before the fused"
                              " pack's face-sink copy: a few bytes, not a default shape")

# The thin-slab kernel (kernels/slab_walk.hpp) in FP32 at R = 1, 3, 4, 5 and
# FP64 at R = 3 on sm_90: nvcc holds it to 128 registers (two blocks of 256
# threads an SM; R = 1 at 80) and spills 28-136 bytes. Its figures in
# docs/PERFORMANCE.md ("The boundary slabs") were measured so; 255 registers
# (one block an SM) were not, so the spill stays until measured against it.
for _name in ("slab_table_kernel<1, float>", "slab_table_kernel<3, float>",
              "slab_table_kernel<3, double>", "slab_table_kernel<4, float>",
              "slab_table_kernel<5, float>"):
    EXPECTED_SPILLS[_name] = ("the thin-slab kernel at nvcc's 128-register choice, as measured;"
                              " 255 registers not yet measured")

# The cells body over a whole box (cell_box_kernel, kernels/wave_kernels.cu)
# in FP64 at R = 6-8 with ROCm 6.4's hipcc 7: its uniform values (three
# field views, the box, the sponge and 3R + 4 coefficients in FP64) need
# more than the 104 SGPRs a wave has, and hipcc 7 puts 36 bytes of them in
# scratch where hipcc 5.2 kept them in VGPR lanes (no LLVM IR alloca: the
# register allocator's choice). The cells body runs boxes of at most 100^3
# (kCellUpdateUpTo), and has not been measured on AMD; the tile body runs
# every box with --update tile.
for _name in ("cell_box_kernel<6, double>", "cell_box_kernel<7, double>",
              "cell_box_kernel<8, double>"):
    EXPECTED_SPILLS[_name] = ("the cells body in FP64 at R >= 6: SGPRs past 104 spilled to 36"
                              " bytes of scratch by ROCm 6.4 (VGPR lanes with HIP 5.2); boxes up to"
                              " 100^3, not measured on AMD")


def demangle(names):
    try:
        out = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True,
                             text=True, check=True).stdout.splitlines()
    except (OSError, subprocess.CalledProcessError):
        return {n: n for n in names}
    return dict(zip(names, out))


def short(name):
    """stencil::detail::(anonymous namespace)::fused_kernel<4, true>(...) -> fused_kernel<4, true>"""
    depth, cut = 0, len(name)
    for pos, ch in enumerate(name):  # drop the argument list at template depth 0
        depth += ch == "<"
        depth -= ch == ">"
        if ch == "(" and depth == 0 and not name.startswith("(anonymous", pos):
            cut = pos
            break
    name = name[:cut]
    name = re.sub(r"\(stencil::Axis\)([0-2])", lambda m: "xyz"[int(m.group(1))], name)
    return re.sub(r"^.*::", "", name.split("<")[0]) + ("<" + name.split("<", 1)[1] if "<" in name else "")


def parse_hip(text):
    rows, current = [], None
    for line in text.splitlines():
        m = re.search(r"remark:\s+(.*?)\s*\[-Rpass-analysis=kernel-resource-usage\]", line)
        if not m:
            continue
        field = m.group(1)
        if field.startswith("Function Name:"):
            current = {"kernel": field.split(":", 1)[1].strip()}
            rows.append(current)
        elif current is not None and ":" in field:
            key, value = field.split(":", 1)
            key = "SGPRs" if key.strip() == "TotalSGPRs" else key.strip()  # clang 21's name
            current[key] = value.strip()
    columns = [("VGPRs", "VGPRs"), ("AGPRs", "AGPRs"), ("SGPRs", "SGPRs"),
               ("LDS Size [bytes/block]", "LDS B"), ("ScratchSize [bytes/lane]", "scratch"),
               ("VGPRs Spill", "VGPR spill"), ("SGPRs Spill", "SGPR spill"),
               ("Occupancy [waves/SIMD]", "waves/SIMD")]
    def verdict(r):
        if any(int(r.get(k, "0") or 0) for k in ("ScratchSize [bytes/lane]", "VGPRs Spill")):
            return "SPILLS"
        return "sgpr-lanes" if int(r.get("SGPRs Spill", "0") or 0) else "ok"
    return rows, columns, verdict


def parse_cuda(text):
    rows, current = [], None
    for line in text.splitlines():
        m = re.search(r"Compiling entry function '(\S+)' for '(\S+)'", line)
        if m:
            current = {"kernel": m.group(1), "arch": m.group(2)}
            rows.append(current)
            continue
        if current is None:
            continue
        m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads", line)
        if m:
            current.update(stack=m.group(1), spill_st=m.group(2), spill_ld=m.group(3))
        m = re.search(r"Used (\d+) registers", line)
        if m:
            current["registers"] = m.group(1)
            s = re.search(r"(\d+) bytes smem", line)
            current["smem"] = s.group(1) if s else "0"
    columns = [("arch", "arch"), ("registers", "regs"), ("smem", "static smem B"),
               ("stack", "stack B"), ("spill_st", "spill st B"), ("spill_ld", "spill ld B")]
    def verdict(r):
        return "SPILLS" if any(int(r.get(k, "0")) for k in ("stack", "spill_st", "spill_ld")) else "ok"
    return rows, columns, verdict


def main():
    if len(sys.argv) not in (3, 4) or sys.argv[1] not in ("hip", "cuda"):
        sys.exit(__doc__)
    label = sys.argv[1] + (" " + sys.argv[3] if len(sys.argv) == 4 else "")
    text = open(sys.argv[2], errors="replace").read()
    rows, columns, verdict = (parse_hip if sys.argv[1] == "hip" else parse_cuda)(text)
    if not rows:
        sys.exit(f"resource-report: no kernel resource lines found in {sys.argv[2]}")
    names = demangle([r["kernel"] for r in rows])
    seen, table = set(), []
    for r in rows:
        key = (names[r["kernel"]], r.get("arch", ""))
        if key in seen:  # the same kernel reported by two compile steps
            continue
        seen.add(key)
        name = short(names[r["kernel"]])
        v = verdict(r)
        if v == "SPILLS" and name in EXPECTED_SPILLS:
            v = "expected"
        table.append([name] + [r.get(k, "-") for k, _ in columns] + [v])
    table.sort(key=lambda t: t[0])
    header = ["kernel"] + [h for _, h in columns] + ["verdict"]
    widths = [max(len(str(x)) for x in col) for col in zip(header, *table)]
    fmt = "  ".join("{:<%d}" % w for w in widths)
    print(fmt.format(*header))
    for t in table:
        print(fmt.format(*t))
    failures = sum(t[-1] == "SPILLS" for t in table)
    expected = sum(t[-1] == "expected" for t in table)
    lanes = sum(t[-1] == "sgpr-lanes" for t in table)
    # The expected spills are counted apart, not left out: "0 with spills"
    # above a list of kernels that spill would read as a contradiction.
    print(f"\n{len(table)} kernels, {failures} with unexpected scratch or spills to memory ({label})"
          + (f"; {expected} with the expected spills below" if expected else "")
          + (f"; {lanes} spill SGPRs into VGPR lanes (no memory traffic)" if lanes else ""))
    for t in table:
        if t[-1] == "expected":
            print(f"expected spill: {t[0]}: {EXPECTED_SPILLS[t[0]]}")
    if sys.argv[1] == "hip":
        print("LDS column: static LDS only. Sized at launch: lds_y (block_y + 2R) * block_x * 16 B;"
              " fused_xy one tile of (block_y + 2R) * (block_x + 2*ceil(R/lanes)) * 16 B, lanes 4"
              " (float) or 2 (double); fused_kernel two, with rows * block_y centre rows (rows: the"
              " LaunchShape's, 1..8).")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    run(main)
