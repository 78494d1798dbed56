package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"

	"github.com/rfkit/rfkit/internal/asm"
	"github.com/rfkit/rfkit/internal/modelfile"
	"github.com/rfkit/rfkit/learners/cv"
)

// runInfo describes a model file.
func runInfo(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet("info", "rfkit info [-json] MODEL",
		"Describes the model file MODEL without using it: the method that wrote it\n"+
			"and its model version, the task, the classes of a classifier, the number\n"+
			"of inputs and their names (when the training file had a header), the\n"+
			"configuration it was trained with, the container format\n"+
			"version, the size and the arrays it holds.")
	asJSON := fs.Bool("json", false, "print the file's header as one JSON object, with the size and arrays")
	fs.String("model", "", "the model `FILE` (or give it as the argument)")
	// MODEL may come as the argument or as -model, before or after -json.
	var path string
	var rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-model" || a == "--model":
			if i+1 < len(args) {
				path = args[i+1]
				i++
			}
		case strings.HasPrefix(a, "-model=") || strings.HasPrefix(a, "--model="):
			path = a[strings.IndexByte(a, '=')+1:]
		case !strings.HasPrefix(a, "-") && path == "":
			path = a
		default:
			rest = append(rest, a)
		}
	}
	if err := fs.parse(rest, e.stdout); err != nil {
		return err
	}
	if path == "" {
		return usagef("a model file is required: rfkit info MODEL")
	}
	m, err := loadModel(path)
	if err != nil {
		return err
	}
	h := m.file.Header
	if *asJSON {
		type array struct {
			Name string `json:"name"`
			Len  int    `json:"len"`
		}
		out := struct {
			modelfile.Header
			Task    string    `json:"task"` // the model's task (multiclass for a binary file of more than two classes)
			Format  int       `json:"format"`
			Classes []float64 `json:"classes,omitempty"`
			Size    int       `json:"size"`
			Arrays  []array   `json:"arrays"`
		}{Header: h, Task: taskName(cv.TaskOf(m.Model)), Format: modelfile.FormatVersion, Size: m.size, Classes: m.classes()}
		for _, a := range m.file.Arrays {
			out.Arrays = append(out.Arrays, array{a.Name, len(a.Data)})
		}
		b, err := json.Marshal(out)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "%s\n", b)
		return ctx.Err()
	}
	w := e.stdout
	fmt.Fprintf(w, "file     %s\n", path)
	if h.Version > modelfile.CalibratedVersion {
		fmt.Fprintf(w, "method   %s (model version %d, with a probability calibration)\n", h.Method, h.Version-modelfile.CalibratedVersion)
	} else {
		fmt.Fprintf(w, "method   %s (model version %d)\n", h.Method, h.Version)
	}
	fmt.Fprintf(w, "task     %s\n", taskName(cv.TaskOf(m.Model)))
	if c := m.classes(); c != nil {
		fmt.Fprintf(w, "classes  %s (%d)\n", fmtValues(c), len(c))
	}
	fmt.Fprintf(w, "inputs   %d\n", h.Inputs)
	if len(h.Names) > 0 {
		q := make([]string, len(h.Names))
		for k, s := range h.Names {
			q[k] = quoteName(s)
		}
		fmt.Fprintf(w, "names    %s\n", strings.Join(q, " "))
	}
	fmt.Fprintf(w, "format   %d (%s)\n", modelfile.FormatVersion, modelfile.Magic)
	fmt.Fprintf(w, "size     %d bytes\n", m.size)
	var arrays []string
	for _, a := range m.file.Arrays {
		arrays = append(arrays, fmt.Sprintf("%s[%d]", a.Name, len(a.Data)))
	}
	fmt.Fprintf(w, "arrays   %s\n", strings.Join(arrays, " "))
	if len(h.Meta) > 0 {
		keys := make([]string, 0, len(h.Meta))
		for k := range h.Meta {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var meta []string
		for _, k := range keys {
			meta = append(meta, fmt.Sprintf("%s=%g", k, h.Meta[k]))
		}
		fmt.Fprintf(w, "meta     %s\n", strings.Join(meta, " "))
	}
	fmt.Fprintln(w, "config")
	for _, kv := range configLines(h.Config) {
		fmt.Fprintf(w, "  %s\n", kv)
	}
	return ctx.Err()
}

// quoteName prints a feature name as it is when that is unambiguous on a
// space-separated line, else Go-quoted.
func quoteName(s string) string {
	if s == "" || strings.ContainsAny(s, " \t\"\\") || strconv.Quote(s) != `"`+s+`"` {
		return strconv.Quote(s)
	}
	return s
}

// configLines renders a model's JSON configuration as "name value" lines,
// one per field, in the file's order.
func configLines(raw json.RawMessage) []string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return []string{string(raw)}
	}
	var out []string
	width := 0
	type kv struct{ k, v string }
	var kvs []kv
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return []string{string(raw)}
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return []string{string(raw)}
		}
		k := strings.ToLower(fmt.Sprint(t))
		kvs = append(kvs, kv{k, strings.Trim(string(v), `"`)})
		width = max(width, len(k))
	}
	for _, p := range kvs {
		out = append(out, fmt.Sprintf("%-*s  %s", width, p.k, p.v))
	}
	return out
}

// runVersion prints what this binary is: the module version and VCS
// revision it was built from, the Go version, and the SIMD path.
func runVersion(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet("version", "rfkit version",
		"Prints the module version and VCS revision of this build (from the build\n"+
			"information Go embeds), the Go version, the platform, and the SIMD path the\n"+
			"kernels run on (RFKIT_DISABLE=avx512,avx2,neon turns paths off).")
	if err := fs.parse(args, e.stdout); err != nil {
		return err
	}
	w := e.stdout
	version, module, rev := "(unknown)", "github.com/rfkit/rfkit", "(unknown: built without VCS information)"
	library := "(unknown)"
	if bi, ok := debug.ReadBuildInfo(); ok {
		// The library is a dependency of the command's module
		// (cmd/rfkit/go.mod); in this repository it is replaced by ../..
		for _, d := range bi.Deps {
			if d.Path == "github.com/rfkit/rfkit" {
				library = d.Version
				if d.Replace != nil {
					library += " => " + d.Replace.Path
					if d.Replace.Version != "" {
						library += " " + d.Replace.Version
					}
				}
			}
		}
		version, module = bi.Main.Version, bi.Main.Path
		if module == "" {
			module = "github.com/rfkit/rfkit"
		}
		var r, t, dirty string
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				r = s.Value
			case "vcs.time":
				t = s.Value
			case "vcs.modified":
				if s.Value == "true" {
					dirty = ", with uncommitted changes"
				}
			}
		}
		if r != "" {
			rev = r
			if t != "" {
				rev += " (" + t + dirty + ")"
			} else if dirty != "" {
				rev += " (" + dirty[2:] + ")"
			}
		}
	}
	fmt.Fprintf(w, "rfkit    %s %s\n", module, version)
	fmt.Fprintf(w, "library  github.com/rfkit/rfkit %s\n", library)
	fmt.Fprintf(w, "revision %s\n", rev)
	fmt.Fprintf(w, "go       %s %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	fmt.Fprintf(w, "simd     %s (available here: %s)\n", asm.Selected(), strings.Join(asm.Paths(), " "))
	return ctx.Err()
}
