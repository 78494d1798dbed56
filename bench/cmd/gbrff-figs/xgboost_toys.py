#!/usr/bin/python3
"""XGBoost on the 2-D toys of the GBRFF paper's Fig. 5 (the paper's LGBM side).

`go run ./bench/cmd/gbrff-figs -fig 5 -write-toys DIR` writes the training and
test sets (<toy>-n<N>-s<S>-train.csv / -test.csv, columns x0,x1,y); this
script fits XGBoost's hist booster on each training set with 1000 rounds
(the paper: "both LGBM and GBRFF2 are run for 1000 iterations"), the tree
depth chosen by 3-fold stratified CV over {1, 2, 3, 5, 8, 10} (the paper's
LGBM grid is depth 1..10 and an L2 penalty), nthread = 1, and prints one
line per set:

    toy n seed train_accuracy test_accuracy depth

`gbrff-figs -fig 5 -xgboost-toys FILE` puts these beside GBRFF2. rfkit itself
never depends on Python; this uses Debian's python3-xgboost and numpy.

Usage: /usr/bin/python3 bench/cmd/gbrff-figs/xgboost_toys.py DIR > FILE
"""

import glob
import os
import re
import sys


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != here]
    try:
        import numpy as np
        import xgboost as xgb
    except ImportError as e:
        sys.exit("xgboost_toys.py: XGBOOST NOT AVAILABLE to %s (%s): apt-get install python3-xgboost" % (sys.executable, e))

    def load(path):
        a = np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2)
        return a[:, :-1], (a[:, -1] > 0).astype(np.float64)

    def fit(X, y, depth):
        params = {"tree_method": "hist", "max_depth": depth, "nthread": 1,
                  "objective": "binary:logistic", "verbosity": 0}
        return xgb.train(params, xgb.DMatrix(X, label=y, nthread=1), num_boost_round=1000)

    def acc(b, X, y):
        return 100.0 * float(((b.predict(xgb.DMatrix(X, nthread=1)) > 0.5) == (y > 0.5)).mean())

    print("# XGBoost %s hist, 1000 rounds, depth by 3-fold CV over 1,2,3,5,8,10, nthread 1" % xgb.__version__)
    print("# toy n seed train_accuracy test_accuracy depth")
    pat = re.compile(r"^(\w+)-n(\d+)-s(\d+)-train\.csv$")
    for path in sorted(glob.glob(os.path.join(sys.argv[1], "*-train.csv"))):
        m = pat.match(os.path.basename(path))
        if not m:
            continue
        X, y = load(path)
        Xt, yt = load(path.replace("-train.csv", "-test.csv"))
        # Stratified 3 folds, seeded.
        rng = np.random.default_rng(int(m.group(3)))
        fold = np.empty(len(y), dtype=int)
        for c in (0.0, 1.0):
            idx = np.flatnonzero(y == c)
            rng.shuffle(idx)
            fold[idx] = np.arange(len(idx)) % 3
        best, best_acc = 1, -1.0
        for depth in (1, 2, 3, 5, 8, 10):
            a = 0.0
            for f in range(3):
                tr, va = fold != f, fold == f
                a += acc(fit(X[tr], y[tr], depth), X[va], y[va]) / 3
            if a > best_acc:
                best, best_acc = depth, a
        b = fit(X, y, best)
        print("%s %s %s %.3f %.3f %d" % (m.group(1), m.group(2), m.group(3), acc(b, X, y), acc(b, Xt, yt), best))
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
