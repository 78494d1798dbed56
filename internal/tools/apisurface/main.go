// Command apisurface lists the exported API of the module's public packages:
// every package outside internal/ and bench/ (and the nested modules beam/
// and cmd/), one line per exported identifier, sorted:
//
//	pkg.Name                 a top-level const, var, func or type
//	pkg.Type.Method          a method (also through an exported type's methods)
//	pkg.Type.Field           an exported field of an exported struct type
//
// Test files, main packages and package-internal identifiers are left out.
// `make api` writes the list to api/exported.txt; `make release-check`
// compares the two and fails when they differ.
//
//	go run ./internal/tools/apisurface [-count] [root]
package main

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// skipDirs are the directories whose packages are not public API: internal
// code, the benchmarks, the nested modules, the command, generated output.
var fields = flag.Bool("fields", false, "also list the exported fields of exported struct types")

var skipDirs = map[string]bool{"internal": true, "bench": true, "beam": true, "cmd": true, "testdata": true, "api": true}

func main() {
	count := flag.Bool("count", false, "print the number of identifiers only")
	flag.Parse()
	root := "."
	if flag.NArg() > 0 {
		root = flag.Arg(0)
	}
	ids, err := surface(root)
	if err != nil {
		fmt.Fprintln(os.Stderr, "apisurface:", err)
		os.Exit(1)
	}
	if *count {
		fmt.Println(len(ids))
		return
	}
	for _, id := range ids {
		fmt.Println(id)
	}
}

// surface returns the sorted exported identifiers of every public package under root.
func surface(root string) ([]string, error) {
	var ids []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if path != root && (skipDirs[d.Name()] || strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_")) {
			return filepath.SkipDir
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		pkgIDs, err := packageIDs(path, filepath.ToSlash(rel))
		if err != nil {
			return err
		}
		ids = append(ids, pkgIDs...)
		return nil
	})
	sort.Strings(ids)
	return ids, err
}

func packageIDs(dir, rel string) ([]string, error) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, dir, func(fi fs.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var ids []string
	for name, pkg := range pkgs {
		if name == "main" {
			continue
		}
		prefix := rel
		if prefix == "." {
			prefix = name
		}
		seen := map[string]bool{}
		add := func(s string) {
			if !seen[s] {
				seen[s] = true
				ids = append(ids, prefix+"."+s)
			}
		}
		for _, f := range pkg.Files {
			for _, decl := range f.Decls {
				switch d := decl.(type) {
				case *ast.FuncDecl:
					if !d.Name.IsExported() {
						continue
					}
					if d.Recv == nil {
						add(d.Name.Name)
						continue
					}
					if recv := recvName(d.Recv.List[0].Type); ast.IsExported(recv) {
						add(recv + "." + d.Name.Name)
					}
				case *ast.GenDecl:
					for _, spec := range d.Specs {
						switch s := spec.(type) {
						case *ast.ValueSpec:
							for _, n := range s.Names {
								if n.IsExported() {
									add(n.Name)
								}
							}
						case *ast.TypeSpec:
							if !s.Name.IsExported() {
								continue
							}
							add(s.Name.Name)
							switch t := s.Type.(type) {
							case *ast.StructType:
								if !*fields {
									break
								}
								for _, fld := range t.Fields.List {
									for _, n := range fld.Names {
										if n.IsExported() {
											add(s.Name.Name + "." + n.Name)
										}
									}
								}
							case *ast.InterfaceType:
								for _, m := range t.Methods.List {
									for _, n := range m.Names {
										if n.IsExported() {
											add(s.Name.Name + "." + n.Name)
										}
									}
								}
							}
						}
					}
				}
			}
		}
	}
	return ids, nil
}

// recvName is the type name of a method receiver (T, *T, T[P], *T[P]).
func recvName(e ast.Expr) string {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.Ident:
			return t.Name
		default:
			return ""
		}
	}
}
