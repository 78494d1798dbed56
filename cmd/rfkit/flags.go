package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/rfkit/rfkit/internal/atomicfile"
)

// usageError marks an error in the command line (exit status 2).
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// usagef returns a usage error.
func usagef(format string, a ...any) error { return &usageError{fmt.Sprintf(format, a...)} }

func isUsage(err error) bool {
	var u *usageError
	return errors.As(err, &u)
}

// errHelp is returned after -h printed the usage (exit status 0).
var errHelp = errors.New("help requested")

// flagSet is a flag.FlagSet that prints its usage to stdout on -h, keeps
// parse errors to one line, and hides the flags marked hidden (test and
// tuning knobs) from the usage.
type flagSet struct {
	*flag.FlagSet
	synopsis string          // first usage line, after "Usage: "
	about    string          // paragraph after the synopsis
	hidden   map[string]bool // flags not shown by -h
	extra    func(io.Writer) // more help after the flags, if not nil
	lead     func(io.Writer) // help printed before the usage line, if not nil
}

func newFlagSet(name, synopsis, about string) *flagSet {
	fs := &flagSet{FlagSet: flag.NewFlagSet("rfkit "+name, flag.ContinueOnError), synopsis: synopsis, about: about, hidden: map[string]bool{}}
	fs.SetOutput(io.Discard) // errors are reported by run, usage by printUsage
	if flagSetMade != nil {
		flagSetMade(fs)
	}
	return fs
}

// flagSetMade, when not nil, sees every flag set a command makes (the
// tests list every flag of every command with it).
var flagSetMade func(*flagSet)

// hide keeps the named flags out of the usage text.
func (fs *flagSet) hide(names ...string) {
	for _, n := range names {
		fs.hidden[n] = true
	}
}

// parse parses args. -h prints the usage to w and returns errHelp; a bad
// flag or a stray positional argument is a usage error.
func (fs *flagSet) parse(args []string, w io.Writer) error {
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		fs.printUsage(w)
		return errHelp
	}
	if err != nil {
		return &usageError{err.Error()}
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q (flags come as -name value)", fs.Arg(0))
	}
	return nil
}

func (fs *flagSet) printUsage(w io.Writer) {
	if fs.lead != nil {
		fs.lead(w)
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "Usage: %s\n\n%s\n\nFlags:\n", fs.synopsis, fs.about)
	fs.VisitAll(func(f *flag.Flag) {
		if fs.hidden[f.Name] {
			return
		}
		arg, help := flag.UnquoteUsage(f)
		line := "  -" + f.Name
		if arg != "" {
			line += " " + arg
		}
		if len(line) <= 20 {
			line = fmt.Sprintf("%-20s  ", line)
		} else {
			line += "\n" + strings.Repeat(" ", 22)
		}
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" {
			help += " (default " + f.DefValue + ")"
		}
		fmt.Fprintln(w, line+help)
	})
	if fs.extra != nil {
		fmt.Fprintln(w)
		fs.extra(w)
	}
}

// isSet reports whether the flag name was given on the command line.
func (fs *flagSet) isSet(name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// keyValues is a repeated -flag k=v, kept in command-line order.
type keyValues struct {
	kv [][2]string
}

func (p *keyValues) String() string {
	parts := make([]string, len(p.kv))
	for i, kv := range p.kv {
		parts[i] = kv[0] + "=" + kv[1]
	}
	return strings.Join(parts, " ")
}

func (p *keyValues) Set(s string) error {
	k, v, ok := strings.Cut(s, "=")
	k = strings.TrimSpace(k)
	if !ok || k == "" {
		return fmt.Errorf("%q is not key=value", s)
	}
	p.kv = append(p.kv, [2]string{k, strings.TrimSpace(v)})
	return nil
}

// grid is a repeated -grid k=v1,v2,... as a map for cv.Expand.
type grid struct {
	keyValues
}

func (g *grid) Set(s string) error {
	if err := g.keyValues.Set(s); err != nil {
		return err
	}
	k, v := g.kv[len(g.kv)-1][0], g.kv[len(g.kv)-1][1]
	for _, s := range strings.Split(v, ",") {
		if strings.TrimSpace(s) == "" {
			return fmt.Errorf("%s has an empty value in %q", k, v)
		}
	}
	return nil
}

// values returns the grid as parameter name → values. A name given twice
// (in any case) is left to cv.Expand, which reports it.
func (g *grid) values() map[string][]string {
	out := map[string][]string{}
	for _, kv := range g.kv {
		var vs []string
		for _, s := range strings.Split(kv[1], ",") {
			vs = append(vs, strings.TrimSpace(s))
		}
		if prev, ok := out[kv[0]]; ok { // the same spelling twice: merge
			vs = append(prev, vs...)
		}
		out[kv[0]] = vs
	}
	return out
}

// notInput refuses (a usage error) an output file, given by the flag
// name, that is the same file as one of inputs (atomicfile.CheckDistinct:
// device and inode, through links), before anything is read or written.
func notInput(name, out string, inputs ...string) error {
	var same *atomicfile.SameFileError
	if err := atomicfile.CheckDistinct(out, inputs...); errors.As(err, &same) {
		if same.Input == out {
			return usagef("-%s %s is also an input: writing it would destroy the input; choose another output file", name, out)
		}
		return usagef("-%s %s is the same file as the input %s: writing it would destroy the input; choose another output file", name, out, same.Input)
	}
	return nil
}
