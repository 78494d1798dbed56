#!/usr/bin/env bash
# bench/compare.sh BASE PKGS BENCH COUNT OUTDIR BENCHSTAT...
#
# The benchmarks of git ref BASE (built in a temporary git worktree) and of
# the working tree, as a benchstat comparison old → new. Each package's test
# binary is built once per side; the runs then alternate old, new, old, new …
# COUNT times, so a slow drift of the (shared, noisy) machine hits both sides
# alike instead of biasing whichever ran second. Called by make bench-compare.
set -euo pipefail
base=$1 pkgs=$2 bench=$3 count=$4 out=$5
shift 5
benchstat=("$@")
go=${GO:-go}

root=$(git rev-parse --show-toplevel)
mkdir -p "$out"
wt=$(mktemp -d)
bins=$(mktemp -d)
cleanup() {
  git -C "$root" worktree remove --force "$wt" >/dev/null 2>&1 || rm -rf "$wt"
  git -C "$root" worktree prune
  rm -rf "$bins"
}
trap cleanup EXIT
git -C "$root" worktree add --quiet --detach "$wt" "$base"
echo "bench-compare: $base ($(git -C "$root" rev-parse --short "$base")) in $wt"

# Build one test binary per package and side; a package that BASE lacks is
# compared from the side that has it only (benchstat shows it as new).
list=()
for pkg in $(cd "$root" && $go list $pkgs); do
  rel=${pkg#$(cd "$root" && $go list -m)}
  rel=.${rel}
  name=$(echo "$rel" | tr '/.' '__')
  (cd "$root" && $go test -c -o "$bins/new$name.test" "$rel")
  (cd "$wt" && $go test -c -o "$bins/old$name.test" "$rel" 2>/dev/null) || echo "bench-compare: $rel does not build at $base; new only"
  list+=("$rel:$name")
done

: > "$out/old.txt"
: > "$out/new.txt"
for i in $(seq 1 "$count"); do
  echo "bench-compare: round $i of $count"
  for entry in "${list[@]}"; do
    rel=${entry%%:*} name=${entry#*:}
    for side in old new; do
      bin=$bins/$side$name.test
      [ -x "$bin" ] || continue
      dir=$root/$rel
      [ "$side" = old ] && dir=$wt/$rel
      (cd "$dir" && "$bin" -test.run '^$' -test.bench "$bench" -test.count 1) >> "$out/$side.txt"
    done
  done
done
"${benchstat[@]}" old="$out/old.txt" new="$out/new.txt"
