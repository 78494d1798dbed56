# rfkit — build, test and benchmark targets. `make test` is what CI runs.
GO        ?= go
QEMU      ?= qemu-aarch64-static
BENCHSTAT ?= $(GO) run golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da
# staticcheck at a pinned version, fetched from the module proxy (no install step).
STATICCHECK ?= $(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2
COUNT     ?= 6
BENCHOUT  ?= bench/out
FUZZTIME  ?= 300x
# Tests are never cached: the path under test comes from the environment.
TESTFLAGS ?= -count=1

# Every package of the library and of the two nested modules the workspace
# (go.work) joins: cmd/rfkit and bench have their own go.mod so that the
# library's go.mod carries no plotting or terminal dependencies. In workspace
# mode ./... stops at a nested module, hence the list. beam/ and internal/gen/
# are outside the workspace and run with GOWORK=off.
PKGS      ?= ./... ./bench/... ./cmd/rfkit/...

HAS_AVX512 := $(shell grep -qw avx512f /proc/cpuinfo 2>/dev/null && grep -qw avx512dq /proc/cpuinfo && echo yes)
HAS_AVX2   := $(shell grep -qw avx2 /proc/cpuinfo 2>/dev/null && grep -qw fma /proc/cpuinfo && echo yes)

.PHONY: api release-check reproduce-gbrff all test test-beam test-onnx lint test-amd64 test-purego test-race test-arm64 build-cross check-generate \
        fuzz generate bench bench-asm bench-compare bench-paths bench-learners bench-baseline demo

all: test

## test: the whole matrix (what .ci/run runs)
test: lint test-amd64 test-purego test-race test-arm64 build-cross check-generate fuzz bench test-beam test-onnx
	@echo "make test: all checks passed"

lint:
	@test -z "$$(gofmt -l . )" || { echo "gofmt needs to run on:"; gofmt -l .; exit 1; }
	$(GO) vet $(PKGS)
	GOARCH=arm64 $(GO) vet $(PKGS)
	$(GO) vet -tags purego $(PKGS)
	cd internal/gen && GOWORK=off $(GO) vet ./...
	$(STATICCHECK) $(PKGS)

## api: api/exported.txt, the exported API of the public packages, one
## identifier a line (internal/tools/apisurface: top-level names and methods,
## outside internal/, bench/, cmd/ and beam/). Run it when the API changes on
## purpose and commit the list with the change.
api:
	$(GO) run ./internal/tools/apisurface > api/exported.txt.tmp && mv api/exported.txt.tmp api/exported.txt
	@echo "api: $$(wc -l < api/exported.txt) exported identifiers"

## release-check: what a release needs beyond the tests: gofmt, vet and
## staticcheck (lint), the exported API equal to api/exported.txt, no
## hand-written assembly, the public packages' examples built and run from a
## fresh module outside the repository (internal/tools/examples-outside.sh),
## and a consumer importing learners/gbrff needing at most two modules
## besides rfkit (internal/tools/consumer-check.sh).
release-check: lint
	@$(GO) run ./internal/tools/apisurface > api/exported.txt.now; \
	if ! diff -u api/exported.txt api/exported.txt.now; then rm -f api/exported.txt.now; \
		echo "release-check: the exported API differs from api/exported.txt (make api, then review and commit)"; exit 1; fi; \
	rm -f api/exported.txt.now; echo "release-check: $$(wc -l < api/exported.txt) exported identifiers, as listed"
	@test -z "$$(git ls-files '*.s' | xargs grep -L 'Code generated')" || { echo "release-check: hand-written assembly:"; git ls-files '*.s' | xargs grep -L 'Code generated'; exit 1; }
	internal/tools/examples-outside.sh "$(GO)"
	internal/tools/consumer-check.sh "$(GO)"

## test-amd64: every amd64 path forced in turn, RFKIT_TEST_REQUIRE proving each ran.
## The first run (the best path of the CPU) is every package; the later ones are
## the library module (./...), not bench/ and cmd/rfkit, which have no code of
## their own that depends on the path and compare the paths in one process
## (asm.Paths) in the first run.
test-amd64:
ifeq ($(HAS_AVX512),yes)
	RFKIT_TEST_REQUIRE=avx512 $(GO) test $(TESTFLAGS) $(PKGS)
else
	@echo "test-amd64: this CPU has no AVX-512; that path is not tested here"
endif
ifeq ($(HAS_AVX2),yes)
	RFKIT_DISABLE=avx512 RFKIT_TEST_REQUIRE=avx2 $(GO) test $(TESTFLAGS) $(if $(HAS_AVX512),./...,$(PKGS))
endif
	RFKIT_DISABLE=avx512,avx2 RFKIT_TEST_REQUIRE=generic $(GO) test $(TESTFLAGS) $(if $(HAS_AVX512)$(HAS_AVX2),./...,$(PKGS))
	cd internal/gen && GOWORK=off $(GO) test $(TESTFLAGS) ./...

## test-beam: the nested module beam/ (Apache Beam Go SDK, its own go.mod; rfkit by
## replace ../): vet, then its tests on the in-process Prism runner. The first
## run downloads and builds the Beam SDK (minutes); the root module never imports it.
## test-onnx: export every exportable kind of model and score it with
## onnxruntime-node (installed once into the user cache) and onnx.checker;
## under CI=true a missing runtime fails (learners/onnx/runtime_test.go)
test-onnx:
	RFKIT_ONNX_RUNTIME=1 $(GO) test $(TESTFLAGS) -run '^TestRuntime$$' -v ./learners/onnx

test-beam:
	cd beam && GOWORK=off $(GO) vet ./... && GOWORK=off $(GO) test $(TESTFLAGS) ./...

test-purego:
	RFKIT_TEST_REQUIRE=generic $(GO) test $(TESTFLAGS) -tags purego $(PKGS)

# The race detector on the Go-only code (the assembly is covered above).
test-race:
	$(GO) test $(TESTFLAGS) -race -short -tags purego $(PKGS)

## test-arm64: NEON and purego under qemu-user. The NEON run is every package;
## its learners compare the model bits of the generic and the NEON path in one
## process (the suite's Paths) and against the golden files. Only internal/asm
## has code that -tags purego swaps, so the purego run is the library outside
## learners/ in full (the kernels and their direct users: trig, featmap,
## internal/...) and the learners' golden-file tests; the learners' other tests,
## bench/ and cmd/rfkit run the same Go code over the same generic kernels as
## the NEON run's Paths check.
test-arm64:
	GOARCH=arm64 GODEBUG=asyncpreemptoff=1 RFKIT_TEST_REQUIRE=neon \
		$(GO) test $(TESTFLAGS) -short -exec $(QEMU) $(PKGS)
	GOARCH=arm64 GODEBUG=asyncpreemptoff=1 RFKIT_TEST_REQUIRE=generic \
		$(GO) test $(TESTFLAGS) -short -tags purego -exec $(QEMU) $$($(GO) list ./... | grep -v '/learners/')
	GOARCH=arm64 GODEBUG=asyncpreemptoff=1 RFKIT_TEST_REQUIRE=generic \
		$(GO) test $(TESTFLAGS) -short -tags purego -run 'Golden|TestConformance/Golden' -exec $(QEMU) ./learners/...

build-cross:
	GOARCH=386 $(GO) build -tags purego $(PKGS)
	GOARCH=386 $(GO) build $(PKGS)
	GOOS=js GOARCH=wasm $(GO) build -tags purego $(PKGS)

generate:
	cd internal/gen && GOWORK=off $(GO) generate ./...

## check-generate: the checked-in assembly and the learners' model_methods.go
## are what the generators write
check-generate: generate
	$(GO) generate ./learners/...
	@git diff --exit-code -- internal/asm learners || { echo "generated files differ: run make generate and go generate ./learners/..., and commit"; exit 1; }
	@test -z "$$(git status --porcelain -- internal/asm learners)" || { git status --porcelain -- internal/asm learners; echo "untracked generated files"; exit 1; }

## fuzz: every Fuzz target in the module, found by go list (not a hand list)
fuzz:
	@set -e; for pkg in $$($(GO) list -f '{{if or .TestGoFiles .XTestGoFiles}}{{.ImportPath}}{{end}}' $(PKGS)); do \
		for target in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
			echo "fuzz $$pkg $$target"; \
			$(GO) test -run '^$$' -fuzz "^$$target\$$" -fuzztime $(FUZZTIME) $$pkg; \
		done; \
	done

## bench-learners: fit (n = 1e4, 1e5) and predict cost of every learner; about 15 min on 2 cores
## (srff at n = 1e5 alone takes about 6.6 min). Results: bench/results/learners.md
bench-learners:
	@mkdir -p $(BENCHOUT)
	$(GO) test -run '^$$' -bench 'Predict' -count 3 ./bench | tee $(BENCHOUT)/learners-predict.txt
	$(GO) test -run '^$$' -bench 'Fit/.*/n=10000$$' -benchtime 1x ./bench | tee $(BENCHOUT)/learners-fit-1e4.txt
	$(GO) test -run '^$$' -bench 'Fit/.*/n=100000$$' -benchtime 1x -timeout 60m ./bench | tee $(BENCHOUT)/learners-fit-1e5.txt

## bench-peers-featmap: BenchmarkFeatureMap at one core next to OpenBLAS dgemm + SLEEF u10 cos on one
## thread at the same shapes (bench/peers/featmap-openblas.sh; Debian's libopenblas-dev, libsleef-dev)
.PHONY: bench-peers-featmap
bench-peers-featmap:
	$(GO) test -run '^$$' -bench 'FeatureMap/.*/.*/.*/path=avx512/procs=1$$' -benchtime 5x -cpu 1 ./bench
	sh bench/peers/featmap-openblas.sh

## bench-peers-freqstep: BenchmarkFrequencyStep (n = 10⁵, d = 20, AVX-512, one core) next to the same
## evaluation as one fused C pass with SLEEF u10 sincos + exp on one thread (bench/peers/freqstep-sleef.sh)
.PHONY: bench-peers-freqstep
bench-peers-freqstep:
	$(GO) test -run '^$$' -bench 'FrequencyStep/n=100000/d=20/path=avx512/procs=1$$' -benchtime 300x -cpu 1 ./bench
	sh bench/peers/freqstep-sleef.sh

## bench: every benchmark of every package once (-benchtime 1x, -short: the
## learner fits at n = 300 only), so that a broken benchmark fails CI. Not a
## measurement; bench-asm, bench-compare and bench-learners measure.
bench:
	$(GO) test -run '^$$' -bench . -benchtime 1x -short $(PKGS)

## bench-asm: benchstat-compatible output of the kernels in $(BENCHOUT)/bench.txt
bench-asm:
	@mkdir -p $(BENCHOUT)
	$(GO) test -run '^$$' -bench . -count $(COUNT) ./internal/asm | tee $(BENCHOUT)/bench.txt

## bench-paths: benchstat of every path (SIMD, generic = the pure-Go twin, Go's math) side by side
bench-paths: bench-asm
	$(BENCHSTAT) -col /path $(BENCHOUT)/bench.txt

## bench-compare BASE=<git ref>: the benchmarks of BASE (in a temporary git
## worktree) and of the working tree as a benchstat comparison old → new,
## CMPCOUNT (10) runs per side, old and new interleaved (bench/compare.sh).
## BENCHPKGS and BENCH narrow the run.
BENCHPKGS ?= ./internal/asm
BENCH     ?= .
CMPCOUNT  ?= 10
bench-compare:
	@test -n "$(BASE)" || { echo "usage: make bench-compare BASE=<git ref>  (e.g. BASE=HEAD, BASE=main~3)"; exit 2; }
	GO="$(GO)" bench/compare.sh "$(BASE)" "$(BENCHPKGS)" '$(BENCH)' $(CMPCOUNT) $(BENCHOUT) $(BENCHSTAT)

## bench-baseline: bench/baseline.txt, the kernels' numbers with the machine
## they came from (compare a later run with: benchstat bench/baseline.txt new.txt)
bench-baseline:
	@{ echo "# rfkit kernel baseline: make bench-baseline at $$(git rev-parse --short HEAD), $$(date -u +%Y-%m-%d)"; \
	   echo "# machine: $$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $$(nproc) CPUs, $$(uname -sr), $$($(GO) version)"; \
	   echo "# load average at the start: $$(cut -d' ' -f1-3 /proc/loadavg)"; \
	   $(GO) test -run '^$$' -bench . -count $(COUNT) ./internal/asm; } > bench/baseline.txt.tmp && mv bench/baseline.txt.tmp bench/baseline.txt

## demo: the README's first command
demo:
	$(GO) run ./cmd/rfkit demo

## reproduce-gbrff: the GBRFF paper's Table 2 protocol on ../shared/datasets, all four methods.
## Quick: 1 seed, every method on at most 1000 training rows, 3-fold CV (about 3 min of CPU).
## FULL=1: 5 seeds, 5-fold CV, GBRFF1, PBRFF and RKS on at most 1000 rows, GBRFF2 on all (about 30 min on
## 2 cores, 44 min CPU); SEEDS=20 for the paper's 20 splits. -cache makes it resumable. Results: bench/results/.
SEEDS    ?= $(if $(FULL),5,1)
MAXTRAIN ?= $(if $(FULL),1000$(peers_comma)gbrff2=0,1000)
FOLDS    ?= $(if $(FULL),5,3)
reproduce-gbrff:
	@mkdir -p $(BENCHOUT)
	$(GO) run ./bench/cmd/reproduce-gbrff -data ../shared/datasets -seeds $(SEEDS) -maxtrain $(MAXTRAIN) -folds $(FOLDS) \
		-cache $(BENCHOUT)/reproduce-gbrff.cache.jsonl -out $(BENCHOUT)/reproduce-gbrff$(if $(FULL),-full).md

## reproduce: every paper reproduction with a quick default (FULL=1 for the paper-sized runs).
.PHONY: reproduce
reproduce: reproduce-gbrff reproduce-prff-fig2 reproduce-tasks reproduce-srff reproduce-prff-fig1 reproduce-prff-fig3 reproduce-gbrff-figs reproduce-rrf reproduce-mfga

## reproduce-srff: the SRFF paper's synthetic tables (SE1, SE2, SE3, with the γ ranking) and Table 8 (RCP, REL, RAI
## with Mean, Ridge, RFF, SRFF; the learned γ per input as PNGs, the paper's Fig. 1); quick (SE1/SE2 at n = 300, Table 8 on 400/100/1000 rows, D = 100, ≈ 1 min of CPU)
## unless FULL=1 (n = 1k…50k with 10/3 replications, Table 8 at 6k/1k/1k, 6k/1k/1k, 11k/1k/1k, D = 300: hours).
.PHONY: reproduce-srff
reproduce-srff:
	@mkdir -p $(BENCHOUT)
	$(GO) run ./bench/cmd/srff-se $(if $(FULL),-full) -out $(BENCHOUT)/srff-se$(if $(FULL),-full).md -png $(BENCHOUT)/srff-se$(if $(FULL),-full)-gamma
	$(GO) run ./bench/cmd/srff-real -data ../shared/datasets $(if $(FULL),-full) -out $(BENCHOUT)/srff-real$(if $(FULL),-full).md

## reproduce-tasks: issue 13's tables (multiclass accuracy of every learner, GBRFF regression RMSE,
## binary log loss with and without calibration) into $(BENCHOUT)/tasks; the committed copies are
## bench/results/multiclass.md, gbrff-regression.md and gbrff-calibration.md.
.PHONY: reproduce-tasks
reproduce-tasks:
	@mkdir -p $(BENCHOUT)/tasks
	$(GO) run ./bench/cmd/multiclass -out $(BENCHOUT)/tasks/multiclass.md
	$(GO) run ./bench/cmd/regression -out $(BENCHOUT)/tasks/gbrff-regression.md
	$(GO) run ./bench/cmd/calibration -out $(BENCHOUT)/tasks/gbrff-calibration.md

## reproduce-prff-fig2: PRFF Fig. 2 (Gram error on adult, cadata, cpu_act) with Nyström beside PRFF,
## RFF and ORF; quick (N = 1000, D ≤ 200, one seed, ≈ 15 s) unless FULL=1 (N = 10000, D ≤ 1000, 3 seeds).
.PHONY: reproduce-prff-fig2
reproduce-prff-fig2:
	@mkdir -p $(BENCHOUT)
	$(GO) run ./bench/cmd/prff-fig2 -data ../shared/datasets $(if $(FULL),-full) -out $(BENCHOUT)/prff-fig2$(if $(FULL),-full).md

## bench-peers: GBRFF2 fit (BenchmarkFit/method=gbrff2, two generator recipes, config = booster and default,
## procs = 1 and 2) next to XGBoost's hist booster (nthread = 1, 100 trees, depth 5) on the same
## make_classification-style rows (bench/peers); XGBoost comes from Debian's python3-xgboost, and the script
## says so if it is missing. PEERS_N=1000,10000,100000,1000000 adds n = 10⁶ (about 15 min more).
PEERS_N      ?= 1000,10000,100000
PEERS_PYTHON ?= /usr/bin/python3
peers_comma  := ,
.PHONY: bench-peers
bench-peers:
	@mkdir -p $(BENCHOUT)/peers
	$(GO) run ./bench/cmd/peer-data -out $(BENCHOUT)/peers -n $(PEERS_N)
	$(GO) test -run '^$$' -bench 'Fit/method=gbrff2/n=($(subst $(peers_comma),|,$(PEERS_N)))$$' -benchtime 3x -cpu 1 -timeout 90m ./bench | tee $(BENCHOUT)/peers/rfkit.txt
	$(PEERS_PYTHON) bench/peers/xgboost.py --data $(BENCHOUT)/peers --n $(PEERS_N) --rfkit $(BENCHOUT)/peers/rfkit.txt

## bench-panel: the benchmark of record. Every learner at its defaults on the 16 binary sets, a9a, the four
## multiclass and the five regression sets of ../shared/datasets, PANEL_SPLITS (5) seeded 70/30 splits, one
## thread, beside XGBoost and HistGradientBoosting at their defaults on the same splits (bench/peers/panel.py,
## Debian's python3-xgboost and python3-sklearn; the script says so when they are missing). Resumable: the
## results stay in $(PANEL_OUT) (delete it after changing a learner). Writes bench/results/panel.md and the
## README's headline table, and a table of GBRFF2's ω-search work per round (-work: the peers generator at
## two seeds and two make_classification recipes at n = 10⁵, besides the panel's sets). PANEL_FLAGS narrows
## a run, e.g. PANEL_FLAGS='-splits 1 -sets table1 -learners gbrff2' (bench/cmd/panel lists the flags); such
## a run writes its page to $(PANEL_OUT)/panel.md and leaves bench/results/panel.md and the README alone.
## Cost (measured at 90bffbc, one core): per split, about 66 CPU-s for every learner but srff and the two peers,
## and 560 for srff at its defaults (cpu_act 40-51, ailerons 75-77, casp 117, cadata 136, elevators 187 per fit):
## five splits take about 52 min of CPU, 89 % of it srff (PANEL_FLAGS='-learners ...' without srff: about 6 min).
PANEL_OUT    ?= $(BENCHOUT)/panel
PANEL_SPLITS ?= 5
PANEL_FLAGS  ?=
PANEL_PAGE   ?= $(if $(PANEL_FLAGS),$(PANEL_OUT)/panel.md,bench/results/panel.md)
.PHONY: bench-panel
bench-panel:
	@mkdir -p $(PANEL_OUT)
	$(GO) run ./bench/cmd/panel -out $(PANEL_OUT) -splits $(PANEL_SPLITS) -rev "$$(git describe --always --dirty)" $(PANEL_FLAGS)
	$(PEERS_PYTHON) bench/peers/panel.py --dir $(PANEL_OUT) --data ../shared/datasets || echo "bench-panel: the peers did not run (see above); the page has no peer columns"
	$(PEERS_PYTHON) bench/peers/panel.py --dir $(PANEL_OUT) --recipes $(PANEL_OUT)/recipes || echo "bench-panel: no make_classification recipes; the ω-search table has the peers generator and the panel's sets only"
	$(GO) run ./bench/cmd/panel -out $(PANEL_OUT) -work -rev "$$(git describe --always --dirty)"
	$(GO) run ./bench/cmd/panel -out $(PANEL_OUT) -report -page $(PANEL_PAGE) $(if $(PANEL_FLAGS),,-readme README.md)

## reproduce-prff-fig1: PRFF Fig. 1 (Gram error on N(0, I_d), d = 10 and 100) with RFF, ORF and Nyström;
## quick (N = 2000, D ≤ 200, one seed, ≈ 30 s) unless FULL=1 (N = 10000, D ≤ 1000, 3 seeds, error over 2000 of the points).
.PHONY: reproduce-prff-fig1
reproduce-prff-fig1:
	@mkdir -p $(BENCHOUT)
	$(GO) run ./bench/cmd/prff-fig1 $(if $(FULL),-full) -out $(BENCHOUT)/prff-fig1$(if $(FULL),-full).md -png $(BENCHOUT)/prff-fig1$(if $(FULL),-full)

## reproduce-prff-fig3: PRFF Fig. 3 (ridge accuracy on adult, MSE on cadata and cpu_act; λ by 5-fold CV over 2^−15…1)
## with RFF, ORF and Nyström; quick (≤ 2000 training rows, D ≤ 100, one seed, ≈ 40 s) unless FULL=1 (the paper's sizes, D ≤ 500).
.PHONY: reproduce-prff-fig3
reproduce-prff-fig3:
	@mkdir -p $(BENCHOUT)
	$(GO) run ./bench/cmd/prff-fig3 -data ../shared/datasets $(if $(FULL),-full) -out $(BENCHOUT)/prff-fig3$(if $(FULL),-full).md -png $(BENCHOUT)/prff-fig3$(if $(FULL),-full)

## reproduce-gbrff-figs: the GBRFF paper's Figs. 1–5 (bench/cmd/gbrff-figs), each a markdown table and a PNG in
## $(GBFIGS_OUT); quick (about 2 min in all on 2 shared cores) unless FULL=1 (the paper's sizes; fig. 2 about
## 28 min with training parts capped at 2000 rows). Figs. 4 and 5 also run XGBoost (bench/peers/xgboost.py, bench/cmd/gbrff-figs/xgboost_toys.py;
## Debian's python3-xgboost) on the same rows when it is there; the Go command never runs Python.
## Committed copies: bench/results/gbrff-fig*.
GBFIGS_OUT ?= $(BENCHOUT)/gbrff-figs
.PHONY: reproduce-gbrff-figs reproduce-gbrff-fig1 reproduce-gbrff-fig2 reproduce-gbrff-fig3 reproduce-gbrff-fig4 reproduce-gbrff-fig5
reproduce-gbrff-figs: reproduce-gbrff-fig1 reproduce-gbrff-fig2 reproduce-gbrff-fig3 reproduce-gbrff-fig4 reproduce-gbrff-fig5
reproduce-gbrff-fig1 reproduce-gbrff-fig2 reproduce-gbrff-fig3:
	@mkdir -p $(GBFIGS_OUT)
	$(GO) run ./bench/cmd/gbrff-figs -fig $(subst reproduce-gbrff-fig,,$@) $(if $(FULL),-full) -data ../shared/datasets -outdir $(GBFIGS_OUT)
reproduce-gbrff-fig4:
	@mkdir -p $(GBFIGS_OUT)/peers
	@n=$$($(GO) run ./bench/cmd/gbrff-figs -fig4-sizes $(if $(FULL),-full)) && \
	$(GO) run ./bench/cmd/peer-data -out $(GBFIGS_OUT)/peers -n $$n && \
	xgb= && if $(PEERS_PYTHON) bench/peers/xgboost.py --data $(GBFIGS_OUT)/peers --n $$n --gen defaults --repeat 1 > $(GBFIGS_OUT)/xgboost.txt; \
		then xgb="-xgboost $(GBFIGS_OUT)/xgboost.txt"; else echo "reproduce-gbrff-fig4: the XGBoost peer did not run"; fi && \
	$(GO) run ./bench/cmd/gbrff-figs -fig 4 $(if $(FULL),-full) -outdir $(GBFIGS_OUT) $$xgb
reproduce-gbrff-fig5:
	@mkdir -p $(GBFIGS_OUT)
	@rm -rf $(GBFIGS_OUT)/toys && $(GO) run ./bench/cmd/gbrff-figs -fig 5 $(if $(FULL),-full) -write-toys $(GBFIGS_OUT)/toys && \
	xgb= && if $(PEERS_PYTHON) bench/cmd/gbrff-figs/xgboost_toys.py $(GBFIGS_OUT)/toys > $(GBFIGS_OUT)/xgboost-toys.txt; \
		then xgb="-xgboost-toys $(GBFIGS_OUT)/xgboost-toys.txt"; else echo "reproduce-gbrff-fig5: the XGBoost peer did not run"; fi && \
	$(GO) run ./bench/cmd/gbrff-figs -fig 5 $(if $(FULL),-full) -outdir $(GBFIGS_OUT) $$xgb
## reproduce-rrf: the RRF paper's online Tables 1–2 protocol (casp with ℓ2/ℓ1/ε against FOGD and NOGD,
## a9a/bankmarketing/occupancy, multiclass on vehicle) and the D sweep of Figs. 1–2 (PNG); quick
## (≤ 8000 rows per set, 3 seeds) unless FULL=1 (every row, the whole λ grid, 10 seeds).
.PHONY: reproduce-rrf
reproduce-rrf:
	@mkdir -p $(BENCHOUT)
	$(GO) run ./bench/cmd/rrf-paper -data ../shared/datasets $(if $(FULL),-full) -out $(BENCHOUT)/rrf-paper$(if $(FULL),-full).md

## reproduce-mfga: the MFGA paper's adult timing with several features per step beside OMP and the
## exact kernel (subsample 2000, FULL=1: 0.25 N as the paper) and a cpu_act regression run.
.PHONY: reproduce-mfga
reproduce-mfga:
	@mkdir -p $(BENCHOUT)
	$(GO) run ./bench/cmd/mfga-paper -data ../shared/datasets $(if $(FULL),-full) -out $(BENCHOUT)/mfga-paper$(if $(FULL),-full).md
