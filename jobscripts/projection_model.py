"""The projection's model (project.py's docstring says what it is): the
mini-app's decomposition and, per rank, the time of a step from a
calibration and a machine file. No input is checked here: project.py checks
the machine file and its arguments before it calls in."""
import math

from checked import ToolError

FLOAT = 4


# ---- decomposition, as the mini-app does it ------------------------------------

def dims_create(ranks):
    """MPI_Dims_create(ranks, 3): the most balanced factors, non-increasing."""
    divisors = [d for d in range(1, int(math.isqrt(ranks)) + 1) if ranks % d == 0]
    divisors = sorted(set(divisors + [ranks // d for d in divisors]))
    best = None
    for a in divisors:
        for b in divisors:
            if b > a or (ranks // a) % b:
                continue
            c = ranks // a // b
            if c > b:
                continue
            key = (a - c, a)
            if best is None or key < best[0]:
                best = (key, (a, b, c))
    return best[1]


def process_grid(ranks):
    a, b, c = dims_create(ranks)
    return (c, b, a)  # reversed: z, the slowest index, gets the most ranks


def piece(n, parts, coord):
    return n // parts + (1 if coord < n % parts else 0)


# ---- the model -----------------------------------------------------------------

def directions(depth):
    """The neighbours a rank exchanges with at `depth`: those across at most
    `depth` axes (halo/halo_plan.hpp): the six faces at depth 1, faces and
    edges (18) at 2, all 26 from 3."""
    out = []
    for dz in (-1, 0, 1):
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                moved = (dx != 0) + (dy != 0) + (dz != 0)
                if 0 < moved <= depth:
                    out.append((dx, dy, dz))
    return out


def project_run(cal, machine, grid, procs, radius, overlap, periodic=(False, False, False), depth=1,
                peer=False):
    """Time per step (ms) of the slowest rank, and what made it. Along a
    `periodic` axis every rank has both neighbours; a rank alone there is
    its own, and fills those halos on the device (no message). At `depth`
    k the step is the mean over a k-step cycle (module docstring). With
    `peer` (--comm peer) faces to ranks of the same node are stored by the
    slabs (module docstring); the others go by MPI."""
    if peer and not (overlap and depth == 1 and cal.shell_points):
        raise ToolError("--comm peer runs overlap on at halo depth 1, and its model needs "
                         "the shell calibration (shell/*.json)")
    px, py, pz = procs
    gpn = machine["gpus_per_node"]
    nic_bytes_per_ms = machine.get("nics_per_node", 1) * machine.get("nic_GBps", 0) * 1e9 / 1e3
    net_latency_ms = machine.get("nic_latency_us", 0) * 1e-3
    link_bytes_per_ms = cal.link_bytes_per_ms if machine.get("link_GBps") in (None, "measured") \
        else machine["link_GBps"] * 1e9 / 1e3
    # CPU ranks sharing cores (HOST back-end) all slow down together.
    on_node = min(gpn, px * py * pz)
    share = max(1.0, on_node / machine["cores_per_node"]) if machine.get("cores_per_node") else 1.0
    scale = machine.get("kernel_time_scale", 1.0)  # another GPU than the calibration's (assumption)
    floor = cal.points[0][1]

    def kernel(cells):
        # Only the part above the small-box floor is memory-bound and scales
        # with the GPU's bandwidth; the floor (launch, too few blocks) does not.
        t = cal.kernel_ms(cells)
        return share * (min(t, floor) + max(0.0, t - floor) * scale)

    ranks = []
    node_offnode = {}
    for cx in range(px):
        for cy in range(py):
            for cz in range(pz):
                c = (cx, cy, cz)
                local = [piece(grid[a], procs[a], c[a]) for a in range(3)]
                rank = (cx * py + cy) * pz + cz
                # (axis or -1 for an edge or corner, bytes, off-node, to itself, bytes packed, its rank)
                faces = []
                for d in directions(depth):
                    n = [c[a] + d[a] for a in range(3)]
                    if any(not 0 <= n[a] < procs[a] and not periodic[a] for a in range(3)):
                        continue
                    n = [n[a] % procs[a] for a in range(3)]
                    other = (n[0] * py + n[1]) * pz + n[2]
                    axis = [a for a in range(3) if d[a]][0] if sum(map(abs, d)) == 1 else -1
                    cells = packed = 0
                    moved = sum(1 for a in range(3) if d[a])
                    for level, w in enumerate((depth * radius, (depth - 1) * radius)):
                        # p(t_n-1) goes where at most depth-1 axes are crossed.
                        n_cells = math.prod(w if d[a] else local[a] for a in range(3)) \
                            if w and moved <= depth - level else 0
                        cells += n_cells
                        # z faces go in place, but p(t_n-1) from depth 3 (halo_plan.hpp).
                        if axis != 2 or (level == 1 and depth >= 3):
                            packed += n_cells
                    faces.append((axis, cells * FLOAT, other // gpn != rank // gpn, other == rank,
                                  packed * FLOAT, other))
                node = rank // gpn
                node_offnode[node] = node_offnode.get(node, 0) + sum(f[1] for f in faces if f[2])
                ranks.append((rank, local, faces))
    worst = None
    for rank, local, faces in ranks:
        per_axis = [sum(1 for f in faces if f[0] == a) for a in range(3)]
        inner = [max(0, local[a] - radius * per_axis[a]) for a in range(3)]
        # The box step s of the cycle updates: grown by (k-1-s)*R per side.
        grown = [[local[a] + (depth - 1 - s) * radius * per_axis[a] for a in range(3)]
                 for s in range(depth)]
        t_int = kernel(math.prod(inner))
        # Slabs, depth*R thick: z slabs span x and y; y slabs the remaining z;
        # x slabs the rest.
        width, g = depth * radius, grown[0]
        t_bnd = 0.0
        for _ in range(per_axis[2]):
            t_bnd += kernel(g[0] * g[1] * width)
        for _ in range(per_axis[1]):
            t_bnd += kernel(g[0] * width * inner[2])
        for _ in range(per_axis[0]):
            t_bnd += cal.x_slab_factor * kernel(width * inner[1] * inner[2])
        sent = [f for f in faces if not f[3]]  # faces to itself move no message
        linked = [f for f in sent if peer and not f[2]]  # stored into on-node neighbours
        sent = [f for f in sent if not (peer and not f[2])]

        def strided_ms(per_byte, which):
            return per_byte * sum(f[4] for f in which) * share * scale

        # The fused pack: at depth 1 with overlap on, the slabs store the
        # sent faces; the measured shell holds that cost.
        fused = overlap and depth == 1 and cal.shell_points and cal.shell_fused_pack
        t_pack = 0.0 if fused else strided_ms(cal.pack_ms_per_byte, sent)
        t_unpack = strided_ms(cal.unpack_ms_per_byte, sent)
        # Messages to ranks of the node: the host posts them one peer rank
        # after another (one block a peer: halo_exchange.hpp), each paying
        # the measured latency, while the bytes move over each peer's own
        # link at once.
        to_peer = {}
        for _, size, off, _, _, other in sent:
            if not off:
                to_peer[other] = to_peer.get(other, 0) + size
        t_ex = len(to_peer) * cal.latency_ms + max(to_peer.values(), default=0) / link_bytes_per_ms
        if any(f[2] for f in faces):
            if nic_bytes_per_ms <= 0:
                raise ToolError(f"{machine['name']} has no NICs (nics_per_node, nic_GBps), "
                                 f"but {len(ranks)} ranks need {len(ranks) // gpn} nodes")
            t_ex = max(t_ex, cal.latency_ms + net_latency_ms +
                       node_offnode[rank // gpn] / nic_bytes_per_ms)
        if sent:  # the host's own cost of an exchange by messages (calibration's host/)
            t_ex += cal.host_ms[bool(overlap)] * share
        fixed = cal.fixed_ms * share
        # From k = 3 the interior waits for the pack (it reads p(t_n-1)
        # cells the interior overwrites).
        waits = t_pack if depth >= 3 else 0.0
        if overlap and cal.shell_points:
            # Measured: the whole box alone, plus the shell a periodic
            # one-GPU run paid (its share for the sides this rank has), plus
            # whatever of the messages the interior does not hide. Deep
            # halos' thicker slabs are in the grown box's kernel time; the
            # split's own cost is taken as the R-thick one's (assumption).
            cells = math.prod(local)
            shell = cells - math.prod(inner)
            full = cells - math.prod(max(0, n - 2 * radius) for n in local)
            t_bnd = cal.shell_ms(cells) * scale * share * (shell / full if full else 0.0)
            # Peer: each linked x face copied whole into the neighbour's
            # mailbox after the step, then unpacked there after the wait.
            t_link = sum(f[1] / link_bytes_per_ms for f in linked if f[0] == 0) + \
                strided_ms(cal.unpack_ms_per_byte, [f for f in linked if f[0] == 0])
            step = fixed + kernel(math.prod(g)) + t_bnd + waits + t_link + \
                max(0.0, t_pack - waits + t_ex + t_unpack - t_int)
        elif overlap:
            step = fixed + waits + max(t_int, t_pack - waits + t_ex) + t_unpack + t_bnd
        else:
            # Every strided face is packed and unpacked before the one
            # launch, the faces a rank fills itself too.
            step = fixed + strided_ms(cal.pack_ms_per_byte, faces) + t_ex + \
                strided_ms(cal.unpack_ms_per_byte, faces) + kernel(math.prod(g))
        # The steps between exchanges: one launch each over a shrinking box.
        step = (step + sum(fixed + kernel(math.prod(b)) for b in grown[1:])) / depth
        row = {"step_ms": step, "interior_ms": t_int, "exchange_ms": t_pack + t_ex,
               "boundary_ms": t_bnd, "hidden": overlap and t_pack + t_ex <= t_int, "local": local,
               "face_mib": max((f[1] for f in faces), default=0) / 1048576, "depth": depth}
        if worst is None or step > worst["step_ms"]:
            worst = row
    return worst


# ---- studies -------------------------------------------------------------------

def node_series(maximum):
    n, out = 1, []
    while n < maximum:
        out.append(n)
        n *= 2
    return out + [maximum]


# The depths --halo-depth best tries: those the mini-app's auto tries, all
# within what validation covers (K = 1 to 4, docs/scaling/PROJECTION.md).
BEST_DEPTHS = (1, 2, 4)
VALIDATED_DEPTHS = range(1, 5)


def project_depth(cal, machine, grid, procs, radius, overlap, periodic, depth, peer=False):
    """project_run at `depth`, or with depth "best" the fastest of
    BEST_DEPTHS whose k*R every rank's box holds (the mini-app's check).
    With overlap "auto", the faster of on and off, the row saying which."""
    if overlap == "auto":
        runs = [dict(project_depth(cal, machine, grid, procs, radius, on, periodic, depth, peer), chosen=name)
                for on, name in ((True, "on"), (False, "off"))]
        return min(runs, key=lambda r: r["step_ms"])
    if depth != "best":
        return project_run(cal, machine, grid, procs, radius, overlap, periodic, depth, peer)
    runs = [project_run(cal, machine, grid, procs, radius, overlap, periodic, k) for k in BEST_DEPTHS
            if all(grid[a] // procs[a] >= k * radius for a in range(3) if procs[a] > 1 or periodic[a])]
    return min(runs, key=lambda r: r["step_ms"])


def weak(cal, machine, local, radius, overlap, nodes, periodic=(False, False, False), depth=1, peer=False):
    # Against one GPU with the same boundaries: with every axis periodic,
    # a lone rank pays the whole shell too, as every rank of the job does.
    base = project_depth(cal, machine, local, (1, 1, 1), radius, overlap, periodic, depth, peer)["step_ms"]
    rows = []
    for n in nodes:
        ranks = n * machine["gpus_per_node"]
        procs = process_grid(ranks)
        grid = [local[a] * procs[a] for a in range(3)]
        r = project_depth(cal, machine, grid, procs, radius, overlap, periodic, depth, peer)
        r.update(nodes=n, ranks=ranks, procs=procs, efficiency=base / r["step_ms"], base_ms=base)
        rows.append(r)
    return rows


def thinnest_box(radius, depth):
    """The fewest cells a rank's box may have along a split or periodic
    axis, as the mini-app requires: k*R at halo depth k ("best" tries only
    the depths that fit). A box under 2R+1 has no interior: its step is
    its slabs."""
    return (depth if depth != "best" else 1) * radius


def strong(cal, machine, grid, radius, overlap, nodes, periodic=(False, False, False), depth=1, peer=False):
    """One grid on each node count, each row's efficiency against one
    node's step (a row of its own or not): T(1 node) / (n x T(n nodes))."""
    def too_thin(procs):  # the mini-app refuses it
        return any((procs[a] > 1 or periodic[a]) and grid[a] // procs[a] < thinnest_box(radius, depth)
                   for a in range(3))

    one = process_grid(machine["gpus_per_node"])
    if too_thin(one):
        return []
    base = project_depth(cal, machine, grid, one, radius, overlap, periodic, depth, peer)["step_ms"]
    rows = []
    for n in nodes:
        ranks = n * machine["gpus_per_node"]
        procs = process_grid(ranks)
        if too_thin(procs):
            break
        r = project_depth(cal, machine, grid, procs, radius, overlap, periodic, depth, peer)
        r.update(nodes=n, ranks=ranks, procs=procs, efficiency=base / (r["step_ms"] * n), base_ms=base)
        rows.append(r)
    return rows
