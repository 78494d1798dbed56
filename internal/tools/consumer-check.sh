#!/bin/sh
# consumer-check.sh: what a library user's module pulls in. A fresh module
# outside the repository imports learners/gbrff (rfkit replaced by this
# checkout); after go mod tidy, go list -m all must show the consumer, rfkit
# and at most two more modules. Usage: internal/tools/consumer-check.sh [go]
set -eu
GO=${1:-go}
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/go.mod" <<MOD
module example.com/rfkitconsumer

go 1.24.0

require github.com/rfkit/rfkit v0.0.0-00010101000000-000000000000

replace github.com/rfkit/rfkit => $root
MOD
cat > "$tmp/main.go" <<'SRC'
package main

import (
	"fmt"

	"github.com/rfkit/rfkit/learners/gbrff"
)

func main() { fmt.Println(gbrff.Config{}.T) }
SRC
cd "$tmp"
GOWORK=off GOFLAGS=-mod=mod "$GO" mod tidy
mods=$(GOWORK=off "$GO" list -m all)
echo "$mods"
n=$(echo "$mods" | wc -l)
if [ "$n" -gt 4 ]; then
	echo "consumer-check: $n modules in a consumer's build list; want the consumer, rfkit and at most two more" >&2
	exit 1
fi
GOWORK=off "$GO" build ./...
echo "consumer-check: $((n - 2)) module(s) besides rfkit"
