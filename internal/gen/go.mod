module github.com/rfkit/rfkit/internal/gen

go 1.26.0

require (
	github.com/mmcloughlin/avo v0.6.0
	github.com/rfkit/rfkit v0.0.0
	golang.org/x/arch v0.32.0
)

require (
	golang.org/x/mod v0.42.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/tools v0.52.0 // indirect
)

replace github.com/rfkit/rfkit => ../..
