#!/usr/bin/env python3
"""jobscripts/project.py's model and calibration on synthetic inputs whose
answers are known by hand: a kernel whose time is exactly 1 ns per cell, a
fixed cost, a link of known latency and bandwidth; and calibration reports
edited wrong. Run by ctest (projection_model)."""
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "jobscripts"))
import calibration  # noqa: E402
import projection_model as model  # noqa: E402


def linear_calibration(link_bytes_per_ms=1e6):
    # kernel(cells) = 1e-6 ms per cell: exact under log-log interpolation.
    return calibration.Calibration([(1e3, 1e-3), (1e9, 1e3)], fixed_ms=0.01, latency_ms=0.005,
                               link_bytes_per_ms=link_bytes_per_ms)


NODE_OF_TWO = {"name": "two", "gpus_per_node": 2, "nodes": 8, "link_GBps": "measured",
               "nics_per_node": 1, "nic_GBps": 1.0, "nic_latency_us": 0.0}


class Decomposition(unittest.TestCase):
    def test_dims_are_mpi_dims_create_reversed(self):
        self.assertEqual(model.dims_create(8), (2, 2, 2))
        self.assertEqual(model.dims_create(12), (3, 2, 2))
        self.assertEqual(model.process_grid(12), (2, 2, 3))  # z gets the most ranks
        self.assertEqual(model.process_grid(2), (1, 1, 2))
        a, b, c = model.dims_create(75264)
        self.assertEqual(a * b * c, 75264)
        self.assertEqual((a, b, c), (49, 48, 32))

    def test_uneven_pieces_give_the_remainder_to_the_first(self):
        self.assertEqual([model.piece(10, 3, c) for c in range(3)], [4, 3, 3])


class Model(unittest.TestCase):
    def test_one_rank_is_fixed_cost_plus_kernel(self):
        r = model.project_run(linear_calibration(), NODE_OF_TWO, [100, 100, 100], (1, 1, 1), 4, True)
        self.assertAlmostEqual(r["step_ms"], 0.01 + 1.0, places=9)

    def test_hidden_exchange_gives_perfect_weak_scaling(self):
        # Two ranks along z: interior 100x100x96 (0.96 ms), one slab
        # 100x100x4 (0.04 ms), exchange 0.005 + 160000 B / 1e6 B/ms = 0.165 ms.
        r = model.project_run(linear_calibration(), NODE_OF_TWO, [100, 100, 200], (1, 1, 2), 4, True)
        self.assertAlmostEqual(r["interior_ms"], 0.96, places=9)
        self.assertAlmostEqual(r["exchange_ms"], 0.165, places=9)
        self.assertTrue(r["hidden"])
        self.assertAlmostEqual(r["step_ms"], 1.01, places=9)
        rows = model.weak(linear_calibration(), NODE_OF_TWO, [100, 100, 100], 4, True, [1])
        self.assertAlmostEqual(rows[0]["efficiency"], 1.0, places=9)

    def test_a_periodic_lone_rank_pays_the_measured_shell(self):
        cal = linear_calibration()
        cal.shell_points = [(1e3, 1e-4), (1e9, 1e2)]  # 1e-7 ms per cell of the box
        r = model.project_run(cal, NODE_OF_TWO, [100, 100, 100], (1, 1, 1), 4, True, (True,) * 3)
        self.assertAlmostEqual(r["step_ms"], 0.01 + 1.0 + 0.1, places=9)
        self.assertEqual(r["exchange_ms"], 0.0)  # its six faces are its own: no message
        # Open edges: no shell, as before.
        r = model.project_run(cal, NODE_OF_TWO, [100, 100, 100], (1, 1, 1), 4, True)
        self.assertAlmostEqual(r["step_ms"], 1.01, places=9)

    def test_periodic_pairs_exchange_both_faces_and_hide_them(self):
        cal = linear_calibration()
        cal.shell_points = [(1e3, 1e-4), (1e9, 1e2)]
        # Two ranks along periodic z: each sends both z faces (160000 B
        # each) to the other, one peer rank: one latency and both faces'
        # bytes over its link (0.005 + 0.32 ms), hidden behind its
        # 92^3-cell interior (all six sides shrink), so it pays the whole
        # six-sided shell and no more.
        r = model.project_run(cal, NODE_OF_TWO, [100, 100, 200], (1, 1, 2), 4, True, (True,) * 3)
        self.assertAlmostEqual(r["exchange_ms"], 0.325, places=9)
        self.assertAlmostEqual(r["step_ms"], 0.01 + 1.0 + 0.1, places=9)
        rows = model.weak(cal, NODE_OF_TWO, [100, 100, 100], 4, True, [1], (True,) * 3)
        self.assertAlmostEqual(rows[0]["efficiency"], 1.0, places=9)
        # A slow link shows: 0.005 + 320000 / 1e4 = 32.005 ms, past the
        # 92^3-cell interior (0.778688 ms).
        slow = linear_calibration(1e4)
        slow.shell_points = cal.shell_points
        r = model.project_run(slow, NODE_OF_TWO, [100, 100, 200], (1, 1, 2), 4, True, (True,) * 3)
        self.assertAlmostEqual(r["step_ms"], 0.01 + 1.0 + 0.1 + 32.005 - 0.778688, places=6)

    def test_each_peer_rank_pays_its_latency(self):
        # Four ranks of one node, 2x2x1, open edges, overlap off: rank 0
        # sends its +x face (4 x 100 x 100 cells, 160000 B) to one rank and
        # its +y face to another. The host posts to one peer after the
        # other: two latencies, and the larger face's bytes (0.16 ms), as
        # the links carry them at once. The kernel takes the 100^3 box.
        node = dict(NODE_OF_TWO, gpus_per_node=4)
        r = model.project_run(linear_calibration(), node, [200, 200, 100], (2, 2, 1), 4, False)
        self.assertAlmostEqual(r["exchange_ms"], 2 * 0.005 + 0.16, places=9)
        self.assertAlmostEqual(r["step_ms"], 0.01 + 2 * 0.005 + 0.16 + 1.0, places=9)

    def test_deep_halos_trade_latency_for_bytes_and_a_ring(self):
        # Two ranks along z, overlap off, depth 2: the exchange step updates
        # 100x100x104 cells (1.04 ms) after one message of 8 planes of p and
        # 4 of the level before (480000 B: 0.005 + 0.48 ms); the next step
        # 100^3 (1.0 ms). Mean: (0.01 + 0.485 + 1.04 + 0.01 + 1.0) / 2.
        r = model.project_run(linear_calibration(), NODE_OF_TWO, [100, 100, 200], (1, 1, 2), 4, False,
                                depth=2)
        self.assertAlmostEqual(r["step_ms"], (0.01 + 0.485 + 1.04 + 0.01 + 1.0) / 2, places=9)
        # Depth 1 is cheaper on this fast link (0.01 + 0.165 + 1.0) ...
        shallow = model.project_run(linear_calibration(), NODE_OF_TWO, [100, 100, 200], (1, 1, 2), 4, False)
        self.assertAlmostEqual(shallow["step_ms"], 1.175, places=9)
        # ... and dearer where latency rules (1 ms per message).
        slow = linear_calibration()
        slow.latency_ms = 1.0
        deep = model.project_run(slow, NODE_OF_TWO, [100, 100, 200], (1, 1, 2), 4, False, depth=2)
        shallow = model.project_run(slow, NODE_OF_TWO, [100, 100, 200], (1, 1, 2), 4, False)
        self.assertAlmostEqual(shallow["step_ms"], 0.01 + 1.16 + 1.0, places=9)
        self.assertAlmostEqual(deep["step_ms"], (0.01 + 1.48 + 1.04 + 0.01 + 1.0) / 2, places=9)
        best = model.project_depth(slow, NODE_OF_TWO, [100, 100, 200], (1, 1, 2), 4, False,
                                     (False,) * 3, "best")
        self.assertGreater(best["depth"], 1)
        self.assertEqual(len(model.directions(1)), 6)
        self.assertEqual(len(model.directions(2)), 18)  # edges too
        self.assertEqual(len(model.directions(3)), 26)  # and corners

    def test_a_fused_pack_shell_already_holds_the_pack(self):
        # Two ranks along periodic x, a slow link: the exchange shows. Each
        # rank packs both of its x faces for the other (2 x 4x100x100 cells,
        # 320000 B at 1e-6 ms per byte: 0.32 ms), unless the shell runs
        # reported the fused pack, whose slabs stored them already.
        def step(fused, depth=1):
            cal = linear_calibration(1e4)
            cal.shell_points = [(1e3, 1e-4), (1e9, 1e2)]
            cal.pack_ms_per_byte = 1e-6
            cal.shell_fused_pack = fused
            return model.project_run(cal, NODE_OF_TWO, [200, 100, 100], (2, 1, 1), 4, True,
                                       (True,) * 3, depth)["step_ms"]
        self.assertAlmostEqual(step(False) - step(True), 0.32, places=9)
        self.assertAlmostEqual(step(False, 2), step(True, 2), places=12)  # fused only at depth 1

    def test_auto_overlap_takes_the_faster_schedule(self):
        # A cheap shell (0.1 ms) beats an exposed exchange (0.165 ms); a
        # dear one (1 ms) does not.
        chosen = []
        for shell_ms_per_cell in (1e-7, 1e-6):
            cal = linear_calibration()
            cal.shell_points = [(1e3, 1e3 * shell_ms_per_cell), (1e9, 1e9 * shell_ms_per_cell)]
            args = (NODE_OF_TWO, [100, 100, 200], (1, 1, 2), 4)
            on, off = (model.project_run(cal, *args, o, (True,) * 3)["step_ms"] for o in (True, False))
            auto = model.project_depth(cal, *args, "auto", (True,) * 3, 1)
            self.assertEqual(auto["step_ms"], min(on, off))
            chosen.append(auto["chosen"])
        self.assertEqual(chosen, ["on", "off"])

    def test_overlap_off_adds_the_exchange(self):
        r = model.project_run(linear_calibration(), NODE_OF_TWO, [100, 100, 200], (1, 1, 2), 4, False)
        self.assertAlmostEqual(r["step_ms"], 0.01 + 0.165 + 1.0, places=9)

    def test_a_slow_link_shows_through(self):
        r = model.project_run(linear_calibration(1e5), NODE_OF_TWO, [100, 100, 200], (1, 1, 2), 4, True)
        self.assertFalse(r["hidden"])
        self.assertAlmostEqual(r["step_ms"], 0.01 + (0.005 + 1.6) + 0.04, places=9)

    def test_no_nics_no_second_node(self):
        alone = dict(NODE_OF_TWO, nics_per_node=0)
        with self.assertRaises(model.ToolError):
            model.project_run(linear_calibration(), alone, [100, 100, 400], (1, 1, 4), 4, True)

    def test_neighbours_on_other_nodes_share_the_nics(self):
        # One GPU per node: the z neighbour is off-node. Two NICs of 0.5 GB/s
        # (1e6 B/ms together) and 1 us network latency.
        machine = {"name": "n", "gpus_per_node": 1, "nodes": 2, "link_GBps": "measured",
                   "nics_per_node": 2, "nic_GBps": 0.5, "nic_latency_us": 1.0}
        r = model.project_run(linear_calibration(), machine, [100, 100, 200], (1, 1, 2), 4, True)
        self.assertAlmostEqual(r["exchange_ms"], 0.005 + 0.001 + 0.16, places=9)

    def test_strong_scaling_stops_where_the_mini_app_would(self):
        # The mini-app takes a box of k*R cells or more along each split
        # axis: 2 ranks per node, R = 4, an 8^3 grid splits z into 4s on 2
        # ranks, y and z into 4s on 4, all three on 8; 16 ranks split z
        # into 2s, which the mini-app refuses.
        rows = model.strong(linear_calibration(), NODE_OF_TWO, [8, 8, 8], 4, True, [1, 2, 4, 8])
        self.assertEqual([r["ranks"] for r in rows], [2, 4, 8])
        # At depth 2 a box needs 8 cells: 2 ranks split z into 4s, too thin already.
        self.assertEqual(model.strong(linear_calibration(), NODE_OF_TWO, [8, 8, 8], 4, True, [1, 2], depth=2), [])

    def test_strong_efficiency_is_against_one_node_whatever_the_rows(self):
        rows = model.strong(linear_calibration(), NODE_OF_TWO, [64, 64, 64], 4, True, [1, 2, 4])
        later = model.strong(linear_calibration(), NODE_OF_TWO, [64, 64, 64], 4, True, [2, 4])
        self.assertEqual([r["efficiency"] for r in rows[1:]], [r["efficiency"] for r in later])
        self.assertEqual(rows[0]["efficiency"], 1.0)

    def test_a_gpu_other_than_the_calibrations_scales_only_the_bandwidth_part(self):
        scaled = dict(NODE_OF_TWO, kernel_time_scale=3.0)
        r = model.project_run(linear_calibration(), scaled, [100, 100, 100], (1, 1, 1), 4, True)
        self.assertAlmostEqual(r["step_ms"], 0.01 + 1e-3 + (1.0 - 1e-3) * 3.0, places=9)


def sweep_report(n, interior):
    """The fields of a one-GPU --comm none report that the calibration reads."""
    def phase(ms):
        return {"avg": ms, "max": ms}
    return {"program": "stencil-miniapp", "ranks": 1, "comm": "none", "radius": 4, "grid": [n, n, n],
            "procs": [1, 1, 1], "overlap": True, "backend": "CUDA", "devices": ["NVIDIA H100"],
            "phases_ms": {"interior": phase(interior), "boundary": phase(0.0), "step": phase(interior + 0.03)}}


class Calibrating(unittest.TestCase):
    def test_a_report_edited_wrong_is_refused_by_its_field(self):
        # A calibration report whose field is missing, of the wrong type or
        # impossible is named with the field, before any arithmetic.
        cases = [("radius", None, "'radius' is a required property"),
                 ("grid", [64, 64], "field grid"),
                 ("ranks", "one", "field ranks"),
                 ("phases_ms", {"step": {"avg": -1.0, "max": 1.0}}, "phases_ms")]
        for field, value, said in cases:
            with tempfile.TemporaryDirectory() as folder:
                os.mkdir(os.path.join(folder, "sweep"))
                report = sweep_report(64, 0.02)
                if value is None:
                    del report[field]
                else:
                    report[field] = value
                json.dump(report, open(os.path.join(folder, "sweep", "s64.json"), "w"))
                with self.assertRaises(model.ToolError) as caught:
                    calibration.Calibration.from_folder(folder)
                self.assertIn("s64.json", str(caught.exception))
                self.assertIn(said, str(caught.exception))

    def test_fits_the_halo_bench_and_reads_the_sweep(self):
        with tempfile.TemporaryDirectory() as folder:
            os.mkdir(os.path.join(folder, "sweep"))
            for n, interior in ((64, 0.02), (128, 0.05)):
                json.dump(sweep_report(n, interior), open(os.path.join(folder, "sweep", f"s{n}.json"), "w"))
            # latency 30 us, 1 MiB sent + received per extra 2 us: 262 GB/s one way.
            with open(os.path.join(folder, "halo-bench-x.txt"), "w") as f:
                f.write("stencil-halo-bench: CUDA back-end, 2 ranks (1 x 1 x 2), NVIDIA H100, R=4, 50 iterations\n")
                for mib in (1, 4, 16):
                    f.write(f"gpu-aware   64   {mib:.2f}   {30 + 2 * mib:.1f}   1.0\n")
            cal = calibration.Calibration.from_folder(folder)
        self.assertAlmostEqual(cal.fixed_ms, 0.03, places=9)
        self.assertAlmostEqual(cal.latency_ms, 0.030, places=9)
        self.assertAlmostEqual(cal.link_bytes_per_ms, 1048576 / (2 * 2e-3), delta=1)
        self.assertAlmostEqual(cal.kernel_ms(128 ** 3), 0.05, places=9)

    def test_reads_the_halo_bench_table_with_depths(self):
        # Since deep halos the table has depth and message columns; only
        # depth 1 is the exchange the model's latency and bandwidth describe.
        table = ["mode        local depth  messages     MiB/exch      us/exch    us/step       GB/s",
                 "gpu-aware      64     1         1         1.00         32.0       32.0        6.3",
                 "gpu-aware      64     2         1         2.00        999.0      499.5        8.5",
                 "gpu-aware     128     1         1         4.00         38.0       38.0        8.1",
                 "staged         64     1         1         1.00         77.0       77.0        1.0"]
        rows = calibration.halo_bench_rows(table, "gpu-aware")
        self.assertEqual(rows, [(1048576.0, 0.032), (4 * 1048576.0, 0.038)])


if __name__ == "__main__":
    unittest.main()
