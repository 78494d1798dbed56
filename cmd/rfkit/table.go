package main

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// table prints rows as they come, in columns as wide as the header or the
// width hint given with it ("name:width"), so a long run shows its results
// one by one.
type table struct {
	w      io.Writer
	widths []int
}

func newTable(w io.Writer, header ...string) *table {
	t := &table{w: w, widths: make([]int, len(header))}
	names := make([]string, len(header))
	for i, h := range header {
		name, width, _ := strings.Cut(h, ":")
		names[i] = name
		fmt.Sscan(width, &t.widths[i])
		t.widths[i] = max(t.widths[i], utf8.RuneCountInString(name))
	}
	t.row(names...)
	return t
}

// row prints one row; the last cell is not padded.
func (t *table) row(cells ...string) {
	var b strings.Builder
	for i, c := range cells {
		b.WriteString(c)
		if i < len(cells)-1 && i < len(t.widths) {
			b.WriteString(strings.Repeat(" ", max(t.widths[i]-utf8.RuneCountInString(c), 0)+2))
		}
	}
	fmt.Fprintln(t.w, strings.TrimRight(b.String(), " "))
}
