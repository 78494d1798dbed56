"""Fits XGBoost and HistGradientBoosting at their defaults (one thread) on
the splits written by defaults-panel -dump, and prints the same columns.

    /usr/bin/python3 peers.py SPLITDIR DATADIR
"""
import os
import sys
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.metrics import log_loss
from xgboost import XGBClassifier

SETS = ["wine", "sonar", "newthyroid", "heart", "bupa", "iono", "wdbc", "balance",
        "australian", "pima", "vehicle", "german", "splice", "spambase", "occupancy", "bankmarketing"]


def main():
    splitdir, datadir = sys.argv[1], sys.argv[2]
    peers = {"xgboost": lambda: XGBClassifier(n_jobs=1),
             "hgb": lambda: HistGradientBoostingClassifier()}
    tot = {k: [0.0, 0.0, 0.0, 0] for k in peers}
    print("%-14s %s" % ("set", "  ".join("%7s %7s %8s" % (k[:7] + "%", "logloss", "fitCPU") for k in peers)))
    for name in SETS:
        f = os.path.join(splitdir, name + ".idx")
        if not os.path.exists(f):
            continue
        data = np.loadtxt(os.path.join(datadir, name, name + ".csv"), delimiter=",", skiprows=1)
        X, y = data[:, :-1], (data[:, -1] > 0).astype(int)
        row = []
        for k, make in peers.items():
            acc = ll = sec = 0.0
            lines = open(f).read().split("\n")
            lines = [l for l in lines if l]
            for line in lines:
                te = np.array([int(v) for v in line.split()[1:]])
                mask = np.ones(len(y), bool)
                mask[te] = False
                m = make()
                c0 = time.process_time()
                m.fit(X[mask], y[mask])
                sec += time.process_time() - c0
                p = m.predict_proba(X[te])[:, 1]
                acc += np.mean((p > 0.5) == y[te])
                ll += log_loss(y[te], p, labels=[0, 1])
            s = len(lines)
            row.append("%7.2f %7.4f %8.2f" % (100 * acc / s, ll / s, sec))
            t = tot[k]
            t[0] += acc / s
            t[1] += ll / s
            t[2] += sec
            t[3] += 1
        print("%-14s %s" % (name, "  ".join(row)), flush=True)
    print("%-14s %s" % ("MEAN/TOTAL", "  ".join("%7.2f %7.4f %8.2f" % (100 * t[0] / t[3], t[1] / t[3], t[2]) for t in tot.values())))


if __name__ == "__main__":
    main()
