package main

import (
	"encoding"
	"fmt"
	"io"
	"reflect"
	"strings"

	"github.com/rfkit/rfkit/learners"
)

// The command's view of the learners registry: the method list, and the
// help that lists a method's parameters.

// methodHelp prints the parameters of the method named in args, or the
// list of methods.
func methodHelp(w io.Writer, args []string) {
	name := methodFromArgs(args)
	if name == "" {
		fmt.Fprintln(w, "Methods (rfkit train -method NAME -h lists NAME's parameters):")
		for _, m := range methodList() {
			fmt.Fprintf(w, "  %-9s %s\n", m.Name, m.Doc)
		}
		return
	}
	m, err := learners.Lookup(strings.ToLower(name))
	if err != nil {
		fmt.Fprintln(w, err)
		return
	}
	printParams(w, m)
}

// methodList is learners.Methods; the command's view of the registry.
func methodList() []learners.Method { return learners.Methods() }

func methodNames() []string {
	var out []string
	for _, m := range methodList() {
		out = append(out, m.Name)
	}
	return out
}

// printParams lists the hyper-parameters of m with their defaults.
func printParams(w io.Writer, m learners.Method) {
	cfg := m.NewConfig()
	ps := learners.Params(cfg)
	for i := range ps {
		ps[i].Default = paramDefault(m, cfg, ps[i])
	}
	fmt.Fprintf(w, "Parameters of %s: %s.\nSet them with -param name=value (names in any case); a zero value selects the\ndocumented default.\n", m.Name, m.Doc)
	nw, tw, dw := len("name"), len("type"), len("default")
	for _, p := range ps {
		nw, tw, dw = max(nw, len(p.Name)), max(tw, len(p.Type)), max(dw, len(defaultText(p.Default)))
	}
	fmt.Fprintf(w, "  %-*s  %-*s  %-*s  %s\n", nw, "name", tw, "type", dw, "default", "description")
	for _, p := range ps {
		fmt.Fprintf(w, "  %-*s  %-*s  %-*s  %s\n", nw, p.Name, tw, p.Type, dw, defaultText(p.Default), p.Doc)
	}
}

// paramDefault is the default of parameter p of m as m trains it: the
// value m's NewConfig presets (lkrf presets Selection lkrf, gbrff1 Variant
// gbrff1, over the shared Config's documented default), else the
// documented default; a regression-only method's task is regression.
func paramDefault(m learners.Method, cfg any, p learners.ParamInfo) string {
	if p.Name == "task" && regressionOnly(m) {
		return learners.Regression.String()
	}
	v := reflect.ValueOf(cfg)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return p.Default
	}
	f := v.Elem().FieldByNameFunc(func(s string) bool { return strings.EqualFold(s, p.Name) })
	if !f.IsValid() || f.IsZero() || !f.CanInterface() {
		return p.Default
	}
	if t, ok := f.Interface().(encoding.TextMarshaler); ok {
		if b, err := t.MarshalText(); err == nil {
			return string(b)
		}
	}
	return fmt.Sprint(f.Interface())
}

func defaultText(s string) string {
	if s == "" {
		return `""`
	}
	return s
}

// methodFromArgs finds -method in args without parsing them, so that
// "train -h -method X" lists X's parameters as "train -method X -h" does.
func methodFromArgs(args []string) string {
	for i, a := range args {
		if a == "--" {
			break
		}
		name := strings.TrimLeft(a, "-")
		if len(a)-len(name) < 1 || len(a)-len(name) > 2 {
			continue
		}
		if v, ok := strings.CutPrefix(name, "method="); ok {
			return v
		}
		if name == "method" && i+1 < len(args) {
			return args[i+1]
		}
	}
	return ""
}
