#!/usr/bin/env python3
"""Checks a --timeline file against the run that wrote it.

usage: timeline_check.py FILE.json RANKS STEPS DEPTH

The file must parse; every span has dur >= 0; every rank has spans, for
exactly the steps the sampling rule picks (worked out here from the rule:
timed step t is sampled when (t // DEPTH) % 8 == 0, and the first 8 sampled
cycles are kept); each step's spans are its schedule (otherData.schedules,
describe() of step_phases) in order, name and lane; the phases of one lane
follow one another in that order without overlapping; and a step's interior
starts no earlier than its begin.
"""
import json
import sys

LANES = {"host": 0, "compute": 1, "halo": 2}
SLACK_US = 0.002  # ts and dur are rounded to the nanosecond


def expected_steps(steps, depth):
    sampled = [t + 1 for t in range(steps) if (t // depth) % 8 == 0]
    return sampled[: 8 * depth]


def check_step(rank, step, spans, schedule):
    where = "rank %d step %d" % (rank, step)
    want = [(p.split("@")[0], LANES[p.split("@")[1]]) for p in schedule.split()]
    spans.sort(key=lambda e: e["args"]["index"])
    got = [(e["name"], e["tid"]) for e in spans]
    assert got == want, "%s: phases %s, schedule %s" % (where, got, want)
    last_end = {}
    for e in spans:
        lane = e["tid"]
        if lane in last_end:
            assert e["ts"] >= last_end[lane] - SLACK_US, "%s: %s starts before the %s lane's " \
                "previous phase ends" % (where, e["name"], lane)
        last_end[lane] = e["ts"] + e["dur"]
    by_name = {e["name"]: e for e in spans}
    if "begin" in by_name and "interior" in by_name:
        assert by_name["interior"]["ts"] >= by_name["begin"]["ts"], "%s: interior before begin" % where


def main():
    path, ranks, steps, depth = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    other = doc["otherData"]
    assert doc["displayTimeUnit"] == "ms"
    assert other["halo_depth"] == depth and len(other["schedules"]) == depth, other
    assert other["fused_pack"] in ((False,) if depth > 1 else (True, False)), other  # fused at depth 1 only
    events = doc["traceEvents"]
    names = {(e["pid"], e.get("tid")): e["args"]["name"] for e in events
             if e["ph"] == "M" and e["name"] in ("process_name", "thread_name")}
    spans = [e for e in events if e["ph"] == "X"]
    want_steps = expected_steps(steps, depth)
    for rank in range(ranks):
        assert names[(rank, None)] == "rank %d" % rank, names
        assert [names[(rank, t)] for t in range(3)] == ["host", "compute stream", "halo stream"]
        mine = [e for e in spans if e["pid"] == rank]
        assert mine, "rank %d has no spans" % rank
        got_steps = sorted({e["args"]["step"] for e in mine})
        assert got_steps == want_steps, "rank %d: steps %s, expected %s" % (rank, got_steps, want_steps)
        for step in got_steps:
            of_step = [e for e in mine if e["args"]["step"] == step]
            ring = (step - 1) % depth
            assert all(e["args"]["ring_step"] == ring for e in of_step)
            check_step(rank, step, of_step, other["schedules"][ring])
    assert {e["pid"] for e in spans} == set(range(ranks))
    assert all(e["dur"] >= 0 for e in spans), "a negative duration"
    print("%s: %d spans, %d ranks, steps %s" % (path, len(spans), ranks, want_steps))


if __name__ == "__main__":
    main()
