// Package gen holds rfkit's code generators. It is a separate module so that
// avo never enters users' builds. Run `go generate ./...` here (a root
// `go generate` does not enter a nested module); the checked-in assembly must
// come out byte for byte the same.
package gen

//go:generate go run ./amd64 -family trig -pkg asm -out ../../asm/trig_amd64.s -stubs ../../asm/trig_stubs_amd64.go
//go:generate go run ./amd64 -family featmap -pkg asm -out ../../asm/featmap_amd64.s -stubs ../../asm/featmap_stubs_amd64.go
//go:generate go run ./amd64 -family exp -pkg asm -out ../../asm/exp_amd64.s -stubs ../../asm/exp_stubs_amd64.go
//go:generate go run ./amd64 -family sums -pkg asm -out ../../asm/sums_amd64.s -stubs ../../asm/sums_stubs_amd64.go
//go:generate go run ./amd64 -family dot -pkg asm -out ../../asm/dot_amd64.s -stubs ../../asm/dot_stubs_amd64.go
//go:generate go run ./amd64 -family standardize -pkg asm -out ../../asm/standardize_amd64.s -stubs ../../asm/standardize_stubs_amd64.go
//go:generate go run ./arm64 -family trig -out ../../asm/trig_arm64.s -stubs ../../asm/trig_stubs_arm64.go
//go:generate go run ./arm64 -family featmap -out ../../asm/featmap_arm64.s -stubs ../../asm/featmap_stubs_arm64.go
//go:generate go run ./arm64 -family exp -out ../../asm/exp_arm64.s -stubs ../../asm/exp_stubs_arm64.go
//go:generate go run ./arm64 -family sums -out ../../asm/sums_arm64.s -stubs ../../asm/sums_stubs_arm64.go
//go:generate go run ./arm64 -family dot -out ../../asm/dot_arm64.s -stubs ../../asm/dot_stubs_arm64.go
//go:generate go run ./arm64 -family standardize -out ../../asm/standardize_arm64.s -stubs ../../asm/standardize_stubs_arm64.go
