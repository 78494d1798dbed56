package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/rfkit/rfkit/bench/internal/resultfile"
)

// section returns the lines of text from the headline's begin marker to
// its end marker, both included.
func section(text string) (string, error) {
	i := strings.Index(text, headBegin)
	if i < 0 {
		return "", fmt.Errorf("no line %q", headBegin)
	}
	j := strings.Index(text[i:], headEnd)
	if j < 0 {
		return "", fmt.Errorf("no line %q after the begin marker", headEnd)
	}
	return text[i : i+j+len(headEnd)], nil
}

// updateReadme replaces the headline section of the file at path with the
// page's (atomically).
func updateReadme(path, page string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	head, err := section(page)
	if err != nil {
		return fmt.Errorf("the page: %w", err)
	}
	old, err := section(string(data))
	if err != nil {
		return fmt.Errorf("%s: %w (add both marker lines where the table goes)", path, err)
	}
	return resultfile.Write(path, []byte(strings.Replace(string(data), old, head, 1)))
}
