#!/usr/bin/python3
"""Time XGBoost's hist booster on the rows rfkit's GBRFF2 benchmark trains on.

`make bench-peers` writes the make_classification-style problems with
`go run ./bench/cmd/peer-data` (bench/peers.ClassificationWith, d = 20, two
recipes: scikit-learn's defaults and a harder setting), runs
BenchmarkFit/method=gbrff2 (one fit per op, GOMAXPROCS set in each leaf), and
then this script, which trains XGBoost (tree_method=hist, nthread=1,
100 trees of depth 5, binary:logistic, otherwise the defaults) on the same
CSV files and prints its fit times next to rfkit's from the same run.

Usage:
    /usr/bin/python3 bench/peers/xgboost.py --data DIR --n 1000,10000,100000 \
        [--rfkit bench-output.txt] [--repeat 3] [--gen defaults,other]

It uses Debian's python3-xgboost (apt-get install python3-xgboost) and says so
plainly when that is missing. rfkit itself never depends on Python.
"""

import argparse
import os
import re
import sys
import time


def parse_rfkit(path):
    """Return {(n, gen, config, procs): (wall s, CPU s, passes/round) per fit} from go test -bench output
    (gen "defaults" or "other": the make_classification recipe; config "booster": GBRFF2 without
    probability calibration, "default": the default configuration)."""
    out = {}
    if not path:
        return out
    pat = re.compile(r"^BenchmarkFit/method=gbrff2/n=(\d+)/gen=(\w+)/config=(\w+)/procs=(\d+)\S*\s+\d+\s+(.*)$")
    with open(path) as f:
        for line in f:
            m = pat.match(line.strip())
            if not m:
                continue
            fields = m.group(5).split()
            metrics = {fields[i + 1]: float(fields[i]) for i in range(0, len(fields) - 1, 2)}
            secs = metrics.get("s/op", metrics.get("ns/op", float("nan")) / 1e9)
            out[(int(m.group(1)), m.group(2), m.group(3), int(m.group(4)))] = (secs, metrics.get("cpu-s/op", float("nan")),
                                                       metrics.get("passes/round", float("nan")))
    return out


# The file prefix of each generator recipe (bench/cmd/peer-data).
PREFIX = {"defaults": "classification", "other": "classification-other"}


def load(data, gen, n, d):
    import numpy as np

    path = os.path.join(data, "%s-n%d-d%d.csv" % (PREFIX[gen], n, d))
    if not os.path.exists(path):
        sys.exit("xgboost.py: %s is missing: run `go run ./bench/cmd/peer-data -out %s -n %d` first" % (path, data, n))
    a = np.loadtxt(path, delimiter=",", skiprows=1)
    X, y = a[:, :-1], (a[:, -1] > 0).astype(np.float64)
    return X, y


def time_xgboost(xgb, X, y, repeat):
    """Mean wall and CPU (process) time of DMatrix + train (what a user's fit
    costs), and the training error. On a machine shared with other jobs the
    CPU time of a one-thread fit is the steadier of the two."""
    params = {"tree_method": "hist", "max_depth": 5, "nthread": 1, "objective": "binary:logistic", "verbosity": 0}
    wall, cpu = [], []
    booster = dm = None
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        dm = xgb.DMatrix(X, label=y, nthread=1)
        booster = xgb.train(params, dm, num_boost_round=100)
        wall.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    err = float(((booster.predict(dm) > 0.5) != (y > 0.5)).mean())
    return sum(wall) / len(wall), sum(cpu) / len(cpu), err


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", required=True, help="directory of classification-n<N>-d<D>.csv")
    ap.add_argument("--n", default="1000,10000,100000", help="comma-separated row counts")
    ap.add_argument("--d", type=int, default=20)
    ap.add_argument("--rfkit", default="", help="go test -bench output of BenchmarkFit/method=gbrff2")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--gen", default="defaults,other", help="comma-separated generator recipes (defaults, other)")
    args = ap.parse_args()
    sizes = [int(s) for s in args.n.split(",") if s.strip()]
    rf = parse_rfkit(args.rfkit)

    # This file is itself named xgboost.py: take its directory off the path so
    # that the import below finds the library, not this script.
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != here]
    try:
        import xgboost as xgb
    except ImportError as e:
        xgb = None
        print("XGBOOST NOT AVAILABLE to %s (%s): install Debian's python3-xgboost "
              "(apt-get install python3-xgboost); only rfkit's times are shown." % (sys.executable, e))

    print("GBRFF2 at its defaults (rfkit BenchmarkFit) vs XGBoost %s hist (100 trees, depth 5, nthread = 1), d = %d"
          % (xgb.__version__ if xgb else "(missing)", args.d))
    print("Times are seconds per fit (mean); cpu = process CPU seconds, the steadier figure on a shared machine.")
    print("booster: rfkit without probability calibration; default: the zero Config a user fits (calibration and")
    print("input encoding included). 2-core speed-up = default wall at GOMAXPROCS 1 / at GOMAXPROCS 2.")
    print("%8s %8s | %11s %11s %9s | %11s %11s %8s | %10s %10s %8s | %15s" % (
        "gen", "n", "booster cpu", "default cpu", "passes/rd", "default wall", "2-core wall", "speed-up",
        "xgb wall", "xgb cpu", "xgb err", "xgb/default cpu"))
    nan = float("nan")
    for gen in args.gen.split(","):
        for n in sizes:
            rb = rf.get((n, gen, "booster", 1), (nan, nan, nan))
            rd = rf.get((n, gen, "default", 1), (nan, nan, nan))
            rd2 = rf.get((n, gen, "default", 2), (nan, nan, nan))
            xw = xc = xerr = nan
            if xgb is not None:
                X, y = load(args.data, gen, n, args.d)
                xw, xc, xerr = time_xgboost(xgb, X, y, args.repeat)
            speedup = rd[0] / rd2[0] if rd2[0] == rd2[0] and rd2[0] > 0 else nan
            dratio = xc / rd[1] if rd[1] == rd[1] and rd[1] > 0 else nan
            print("%8s %8d | %11.4f %11.4f %9.1f | %11.4f %11.4f %8.2f | %10.4f %10.4f %8.4f | %15.2f" % (
                gen, n, rb[1], rd[1], rd[2], rd[0], rd2[0], speedup, xw, xc, xerr, dratio))
    return 0


if __name__ == "__main__":
    sys.exit(main())
