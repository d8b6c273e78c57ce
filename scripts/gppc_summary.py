#!/usr/bin/env python3
"""Summarises runs of the GPPC dynamic track's runner (scripts/gppc_dynamic.sh).

  gppc_summary.py check SCEN CHECK_OUTPUT      every query's path: valid, and its length
                                               against the scenario's reference cost
  gppc_summary.py run SCEN RESULT_CSV...       times: one row for the least total of the
                                               rounds given

Each prints one line of key=value fields; `check` exits 1 when a path is invalid or its
length differs from the reference (shorter would mean a wrong reference), `run` when the
result file has no rows or lengths disagree the same way.
"""
import csv
import sys

TOLERANCE = 1e-5  # the references carry 12-15 digits; paths are sums of 1 and sqrt 2


def references(scen):
    """The reference cost of every query of a version-2 scenario, in order."""
    costs = []
    with open(scen) as f:
        for line in f:
            fields = line.split()
            if fields and fields[0] == "Q":
                if len(fields) != 7:
                    sys.exit(f"gppc_summary: {scen}: malformed query line: {line.strip()}")
                costs.append(float(fields[6]))
    if not costs:
        sys.exit(f"gppc_summary: {scen}: no queries")
    return costs


def agrees(length, ref):
    if ref < 0:
        return length < 0
    return length >= 0 and abs(length - ref) <= TOLERANCE * max(1.0, ref)


def check(scen, output):
    refs = references(scen)
    finals = []
    with open(output) as f:
        for line in f:
            if line.startswith("final "):
                _, state, distance = line.split()
                finals.append((state, float(distance)))
    if len(finals) != len(refs):
        print(f"gppc_summary: {output}: {len(finals)} answers for {len(refs)} queries of {scen}")
        return 1
    invalid = suboptimal = shorter = 0
    for (state, distance), ref in zip(finals, refs):
        if state == "empty-path":
            distance = -1.0
        elif state != "complete":
            invalid += 1
            continue
        if not agrees(distance, ref):
            if ref >= 0 and 0 <= distance < ref:
                shorter += 1
            else:
                suboptimal += 1
    print(f"check scen={scen} queries={len(refs)} invalid={invalid} suboptimal={suboptimal} shorter={shorter}")
    return 1 if invalid or suboptimal or shorter else 0


def percentile(values, p):
    s = sorted(values)
    return s[min(len(s) - 1, int(p * len(s)))]


def run(scen, results):
    refs = references(scen)
    best = None
    for path in results:
        with open(path) as f:
            rows = list(csv.DictReader(f))
        if len(rows) != len(refs):
            print(f"gppc_summary: {path}: {len(rows)} rows for {len(refs)} queries of {scen}")
            return 1
        total = sum(int(r["time_cost"]) for r in rows)
        if best is None or total < best[0]:
            best = (total, rows)
    total, rows = best
    times = [int(r["time_cost"]) / 1000.0 for r in rows]  # microseconds, the change before included
    change = sum(int(r["snapshot_time"]) for r in rows) / 1e6
    wrong = sum(1 for r, ref in zip(rows, refs) if not agrees(float(r["path_length"]), ref))
    print(f"run scen={scen} rounds={len(results)} queries={len(rows)} total_ms={total / 1e6:.2f} "
          f"mean_us={total / 1000.0 / len(rows):.1f} p99_us={percentile(times, 0.99):.0f} "
          f"max_us={max(times):.0f} change_ms={change:.2f} off_reference={wrong}")
    return 0


def main(argv):
    if len(argv) >= 4 and argv[1] == "check":
        return check(argv[2], argv[3])
    if len(argv) >= 4 and argv[1] == "run":
        return run(argv[2], argv[3:])
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
