#!/usr/bin/python3
"""The peers of the panel (make bench-panel): XGBoost and scikit-learn's
HistGradientBoosting at their defaults, one thread, on exactly the splits the
Go learners were fitted on.

`go run ./bench/cmd/panel -out DIR` writes DIR/splits/SET.json (the set's CSV
file, its task and, per split, the 0-based indices of the training and test
rows); this script reads them, fits

    XGBClassifier(n_jobs=1) / XGBRegressor(n_jobs=1)           -> "xgboost"
    HistGradientBoostingClassifier() / ...Regressor()           -> "histgb"

with every other parameter at its default (random_state=0 for both, so that
HistGradientBoosting's early stopping on n > 10 000 rows draws the same
validation rows in every run; XGBoost's default is 0 already), and writes one
JSON line per peer x set x split to DIR/peers.jsonl, in the panel's record
format (bench/cmd/panel/records.go), which `go run ./bench/cmd/panel -report`
turns into the results page. One thread: OMP_NUM_THREADS=1 is set before
numpy, scikit-learn and XGBoost are imported, and n_jobs=1 for XGBoost.

Metrics on the test rows: accuracy and log loss (classification; the classes
are the set's sorted distinct labels, mapped to 0..K-1 for the peers and back;
the probability of the true class clipped at 1e-15, as metrics.LogLoss), RMSE
(regression). Fit CPU: time.process_time() around fit. Predict: the wall time
CPU time of one predict call on a 1 x d array (the median of 5 rounds of at
least 5 ms), Python's call overhead included: what one-row serving costs through
these libraries.

Usage:
    /usr/bin/python3 bench/peers/panel.py --dir bench/out/panel --data ../shared/datasets \
        [--sets wine,heart] [--peers xgboost,histgb] [--splits N] [--fresh]

Resumable: records already in DIR/peers.jsonl are kept and not re-run (--fresh
starts over). The file is rewritten atomically after each fit.

It needs Debian's python3-xgboost and python3-sklearn (apt-get install
python3-xgboost python3-sklearn) run by /usr/bin/python3, and says so plainly
when they are missing. rfkit itself never depends on Python.
"""

import os

os.environ["OMP_NUM_THREADS"] = "1"  # before numpy, scikit-learn and XGBoost load OpenMP

import sys

# This directory holds xgboost.py (the bench-peers script), which would shadow the library.
sys.path = [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(os.path.abspath(__file__))]

import argparse
import datetime
import glob
import json
import math
import tempfile
import time

PEERS = ("xgboost", "histgb")


def need_libraries():
    missing = []
    try:
        import numpy  # noqa: F401
    except ImportError:
        missing.append("python3-numpy")
    try:
        import sklearn  # noqa: F401
    except ImportError:
        missing.append("python3-sklearn")
    try:
        import xgboost  # noqa: F401
    except ImportError:
        missing.append("python3-xgboost")
    if missing:
        sys.exit("panel.py: %s cannot import %s: install Debian's %s (apt-get install %s) and run this script "
                 "with /usr/bin/python3; the panel's peer columns stay empty until then"
                 % (sys.executable, ", ".join(m.replace("python3-", "") for m in missing), " and ".join(missing),
                    " ".join(missing)))


def read_records(path):
    out, order = {}, []
    if not os.path.exists(path):
        return out, order
    with open(path) as f:
        for i, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                r = json.loads(line)
                key = "%s|%s|%d" % (r["learner"], r["set"], r["split"])
            except (ValueError, KeyError) as e:
                sys.exit("panel.py: %s: line %d is not a panel record (%s)" % (path, i, e))
            if key not in out:
                order.append(key)
            out[key] = r
    return out, order


def write_records(path, recs, order):
    """Rewrite the whole file atomically: a temporary file in the same
    directory, flushed and renamed over the old one."""
    d = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".peers-", suffix=".tmp", dir=d)
    try:
        with os.fdopen(fd, "w") as f:
            for k in order:
                f.write(json.dumps(recs[k], allow_nan=False) + "\n")
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def load_csv(path):
    import numpy as np

    a = np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2)
    return a[:, :-1], a[:, -1]


def make_model(peer, task):
    if peer == "xgboost":
        import xgboost

        cls = xgboost.XGBRegressor if task == "regression" else xgboost.XGBClassifier
        return cls(n_jobs=1)
    from sklearn.ensemble import HistGradientBoostingClassifier, HistGradientBoostingRegressor

    cls = HistGradientBoostingRegressor if task == "regression" else HistGradientBoostingClassifier
    return cls(random_state=0)


def predict_latency(model, X):
    """CPU ns (time.process_time) of one predict on a 1 x d array: the median
    of 5 rounds of at least 5 ms of CPU each, cycling over the test rows."""
    rates, i, n = [], 0, X.shape[0]
    for _ in range(5):
        calls, start = 0, time.process_time()
        while calls < 4 or time.process_time() - start < 5e-3:
            model.predict(X[i:i + 1])
            i = (i + 1) % n
            calls += 1
        rates.append((time.process_time() - start) * 1e9 / calls)
    rates.sort()
    return rates[len(rates) // 2]


def fit_one(peer, task, X, y, sp, versions):
    import numpy as np

    tr, te = np.asarray(sp["train"], dtype=np.int64), np.asarray(sp["test"], dtype=np.int64)
    Xtr, Xte = X[tr], X[te]
    rec = {"learner": peer, "source": "peer", "task": task, "split": sp["seed"], "n_train": len(tr),
           "n_test": len(te), "accuracy": None, "log_loss": None, "rmse": None, "procs": 1, "rev": versions}
    model = make_model(peer, task)
    if task == "regression":
        ytr, yte = y[tr], y[te]
    else:
        classes = np.unique(y)  # sorted: index 1 of a binary set is +1, the Go models' positive class
        idx = np.searchsorted(classes, y)
        ytr, yte = idx[tr], idx[te]
    cpu0, wall0 = time.process_time(), time.perf_counter()
    model.fit(Xtr, ytr)
    rec["fit_cpu_s"] = time.process_time() - cpu0
    rec["fit_wall_s"] = time.perf_counter() - wall0
    if task == "regression":
        pred = model.predict(Xte)
        rec["rmse"] = float(math.sqrt(np.mean((pred - yte) ** 2)))
    else:
        prob = model.predict_proba(Xte)
        if prob.shape[1] != len(classes):
            raise RuntimeError("%s: %d probability columns for %d classes" % (peer, prob.shape[1], len(classes)))
        pred = model.predict(Xte)
        rec["accuracy"] = float(np.mean(pred == yte))
        p_true = prob[np.arange(len(yte)), yte]
        rec["log_loss"] = float(-np.mean(np.log(np.maximum(p_true, 1e-15))))
    rec["predict_ns"] = predict_latency(model, Xte)
    return rec


# The make_classification recipes of the panel's omega-search table: n = 1e5, d = 20,
# scikit-learn's defaults, and a harder setting.
RECIPES = {
    "make_classification-defaults.csv": dict(random_state=0),
    "make_classification-other.csv": dict(n_informative=10, n_redundant=0, n_clusters_per_class=3, class_sep=0.7,
                                          flip_y=0.05, random_state=1),
}


def write_recipes(d):
    import numpy as np
    from sklearn.datasets import make_classification

    os.makedirs(d, exist_ok=True)
    for name, kw in RECIPES.items():
        path = os.path.join(d, name)
        if os.path.exists(path):
            continue  # the recipe is seeded: the file is what it would write
        X, y = make_classification(n_samples=100000, n_features=20, **kw)
        a = np.column_stack([X, np.where(y == 1, 1, -1)])
        header = ",".join(["x%d" % i for i in range(X.shape[1])] + ["y"])
        fd, tmp = tempfile.mkstemp(prefix=".recipe-", suffix=".tmp", dir=d)
        with os.fdopen(fd, "w") as f:
            np.savetxt(f, a, delimiter=",", header=header, comments="", fmt="%.9g")
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
        print("panel.py: wrote %s (make_classification(n_samples=100000, n_features=20, %s))"
              % (path, ", ".join("%s=%r" % kv for kv in kw.items())), file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dir", required=True, help="the panel's output directory (splits/ in it)")
    ap.add_argument("--data", default="../shared/datasets", help="the data sets directory")
    ap.add_argument("--sets", default="", help="comma-separated set names (default: every split file)")
    ap.add_argument("--peers", default=",".join(PEERS), help="comma-separated among xgboost, histgb")
    ap.add_argument("--splits", type=int, default=0, help="use only the first N splits of each set (0: all)")
    ap.add_argument("--fresh", action="store_true", help="ignore the records already in peers.jsonl")
    ap.add_argument("--recipes", default="", help="only write the make_classification CSVs of the panel's "
                    "omega-search table into this directory (for `go run ./bench/cmd/panel -work`)")
    a = ap.parse_args()
    need_libraries()
    if a.recipes:
        write_recipes(a.recipes)
        return
    import numpy as np  # noqa: F401
    import sklearn
    import xgboost

    versions = "xgboost %s, scikit-learn %s" % (xgboost.__version__, sklearn.__version__)
    peers = [p.strip() for p in a.peers.split(",") if p.strip()]
    for p in peers:
        if p not in PEERS:
            sys.exit("panel.py: --peers: unknown peer %r (want xgboost, histgb)" % p)
    files = sorted(glob.glob(os.path.join(a.dir, "splits", "*.json")))
    if not files:
        sys.exit("panel.py: no split files in %s: run `go run ./bench/cmd/panel -out %s` first"
                 % (os.path.join(a.dir, "splits"), a.dir))
    want = set(s.strip() for s in a.sets.split(",") if s.strip())
    out = os.path.join(a.dir, "peers.jsonl")
    recs, order = ({}, []) if a.fresh else read_records(out)
    jobs = []
    for f in files:
        with open(f) as fh:
            sf = json.load(fh)
        if want and sf["set"] not in want:
            continue
        splits = sf["splits"][: a.splits] if a.splits > 0 else sf["splits"]
        for sp in splits:
            for p in peers:
                jobs.append((sf, sp, p))
    # Split-major order, as the Go command: a short run has whole splits.
    jobs.sort(key=lambda j: j[1]["seed"])
    todo = [j for j in jobs if "%s|%s|%d" % (j[2], j[0]["set"], j[1]["seed"]) not in recs]
    print("panel.py: %d jobs, %d still to run (%s, one thread) -> %s" % (len(jobs), len(todo), versions, out),
          file=sys.stderr)
    data = {}
    start = time.perf_counter()
    for k, (sf, sp, peer) in enumerate(todo, 1):
        name = sf["set"]
        if name not in data:
            X, y = load_csv(os.path.join(a.data, sf["file"]))
            if X.shape[0] != sf["rows"]:
                sys.exit("panel.py: %s has %d rows, the split file %d: the data changed since the splits were written"
                         % (sf["file"], X.shape[0], sf["rows"]))
            data = {name: (X, y)}  # one set in memory at a time
        X, y = data[name]
        try:
            rec = fit_one(peer, sf["task"], X, y, sp, versions)
        except Exception as e:  # a peer's failure is a finding of the page, not the end of the run
            rec = {"learner": peer, "source": "peer", "task": sf["task"], "split": sp["seed"], "n_train": len(sp["train"]),
                   "n_test": len(sp["test"]), "accuracy": None, "log_loss": None, "rmse": None, "fit_cpu_s": 0,
                   "fit_wall_s": 0, "predict_ns": 0, "procs": 1, "rev": versions, "error": "%s: %s" % (type(e).__name__, e)}
        rec["set"] = name
        rec["time"] = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        key = "%s|%s|%d" % (peer, name, sp["seed"])
        if key not in recs:
            order.append(key)
        recs[key] = rec
        write_records(out, recs, order)
        if rec.get("error"):
            what = "ERROR " + rec["error"]
        elif rec["rmse"] is not None:
            what = "rmse %.5g" % rec["rmse"]
        else:
            what = "acc %.4f logloss %.4f" % (rec["accuracy"], rec["log_loss"])
        print("panel.py: [%d/%d %.0fs] split %d %-14s %-7s %s fit %.3f CPU-s, predict %.0f ns"
              % (k, len(todo), time.perf_counter() - start, sp["seed"], name, peer, what, rec["fit_cpu_s"],
                 rec["predict_ns"]), file=sys.stderr)


if __name__ == "__main__":
    main()
