#!/bin/sh
# examples-outside.sh: build and run the examples of the library's public
# packages as a user would, from a fresh module outside the repository that
# requires github.com/rfkit/rfkit (replaced by this checkout). An example that
# imports an internal package, or depends on a test helper of its package,
# fails here. Usage: internal/tools/examples-outside.sh [go]
set -eu
GO=${1:-go}
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/go.mod" <<MOD
module example.com/rfkituser

go 1.24.0

require github.com/rfkit/rfkit v0.0.0-00010101000000-000000000000

replace github.com/rfkit/rfkit => $root
MOD
cp "$root/go.sum" "$tmp/go.sum"
n=0
cd "$root"
for f in $(git ls-files '*_test.go' | grep -v -e '^internal/' -e '/internal/' -e '^bench/' -e '^beam/' -e '^cmd/'); do
	grep -q '^func Example' "$f" || continue
	head -1 "$f" | grep -q '_test$' || continue # an internal-package example is not what a user sees
	dir="$tmp/$(dirname "$f")"
	mkdir -p "$dir"
	cp "$f" "$dir/"
	n=$((n + 1))
done
cd "$tmp"
echo "examples-outside: $n example files in a fresh module"
GOWORK=off GOFLAGS=-mod=mod "$GO" vet ./...
GOWORK=off GOFLAGS=-mod=mod "$GO" test -count=1 -run '^Example' ./...
