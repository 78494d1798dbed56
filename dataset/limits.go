package dataset

import (
	"bufio"
	"errors"
	"fmt"
	"io"
)

// defaultMaxLineBytes is the line limit when [CSVOptions].MaxLineBytes or
// [LIBSVMOptions].MaxLineBytes is 0 (their field docs state it).
const defaultMaxLineBytes = 1 << 25

// errLineTooLong is returned (wrapped) when a line exceeds the line limit.
var errLineTooLong = errors.New("line too long")

// lineLimiter passes r through, failing once a line (bytes between two
// '\n') exceeds max: without it, input with no newline (/dev/zero, a binary
// file) would be buffered whole by the line readers.
type lineLimiter struct {
	r    io.Reader
	max  int
	run  int // bytes since the last '\n'
	line int // 1-based physical line of the next byte
	err  error
}

func newLineLimiter(r io.Reader, max int) *lineLimiter {
	if max <= 0 {
		max = defaultMaxLineBytes
	}
	return &lineLimiter{r: r, max: max, line: 1}
}

func (l *lineLimiter) Read(p []byte) (int, error) {
	if l.err != nil {
		return 0, l.err
	}
	n, err := l.r.Read(p)
	for i, c := range p[:n] {
		if c == '\n' {
			l.run, l.line = 0, l.line+1
			continue
		}
		if l.run++; l.run > l.max {
			l.err = fmt.Errorf("dataset: line %d is longer than %d bytes (%w; raise MaxLineBytes if the file is right)", l.line, l.max, errLineTooLong)
			return i, l.err
		}
	}
	return n, err
}

// compressed names the compression format whose magic number opens br,
// or "" (the bytes are not consumed).
func compressed(br *bufio.Reader) string {
	b, _ := br.Peek(6)
	for _, m := range []struct{ magic, name, tool string }{
		{"\x1f\x8b", "gzip", "gunzip"},
		{"PK\x03\x04", "zip", "unzip"},
		{"BZh", "bzip2", "bunzip2"},
		{"\xfd7zXZ\x00", "xz", "unxz"},
		{"\x28\xb5\x2f\xfd", "zstd", "unzstd"},
	} {
		if len(b) >= len(m.magic) && string(b[:len(m.magic)]) == m.magic {
			return m.name + "-compressed; decompress it first (" + m.tool + ")"
		}
	}
	return ""
}

// openText is the common start of the readers: the line limit, a buffered
// reader, a compressed input refused with a clear error, and a UTF-8
// byte-order mark skipped.
func openText(r io.Reader, maxLine int) (*bufio.Reader, error) {
	br := bufio.NewReader(newLineLimiter(r, maxLine))
	if c := compressed(br); c != "" {
		return nil, errors.New("dataset: the input is " + c)
	}
	if b, err := br.Peek(3); err == nil && string(b) == "\uFEFF" {
		br.Discard(3)
	}
	return br, nil
}
