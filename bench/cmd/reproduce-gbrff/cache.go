package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"
)

// cacheEntry is the result of one (data set, seed, method) group, as the
// -cache file stores it, one JSON object per line.
type cacheEntry struct {
	Key  string  `json:"key"`
	Best string  `json:"best"` // the winning candidate's name
	CV   float64 `json:"cv"`   // its mean validation accuracy
	Test float64 `json:"test"` // its test accuracy after the refit
	Work int64   `json:"work_ns"`
}

// cache is the -cache file: the results of finished groups, reused by later
// runs whose settings give the same key, so a long run can be resumed or
// extended (more seeds, more sets). The key holds every setting that
// changes a group's result except the code itself: delete the file after
// changing a learner.
type cache struct {
	f       *os.File
	entries map[string]cacheEntry
}

// openCache reads the entries of path (if it exists) and opens it for
// appending.
func openCache(path string) (*cache, error) {
	c := &cache{entries: map[string]cacheEntry{}}
	if data, err := os.ReadFile(path); err == nil {
		sc := bufio.NewScanner(strings.NewReader(string(data)))
		sc.Buffer(nil, 1<<20)
		for line := 1; sc.Scan(); line++ {
			var e cacheEntry
			if err := json.Unmarshal(sc.Bytes(), &e); err != nil || e.Key == "" {
				return nil, fmt.Errorf("-cache %s: line %d is not a cache entry", path, line)
			}
			c.entries[e.Key] = e
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("-cache: %w", err)
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, fmt.Errorf("-cache: %w", err)
	}
	c.f = f
	return c, nil
}

// key identifies a group's result: the data set (name and shape), the
// seed, the method, T, the folds, the row limit and the grid.
func (g *group) key(o *options) string {
	return fmt.Sprintf("v1|%s|%dx%d|seed=%d|%s|T=%d|folds=%d|maxtrain=%d|%s",
		o.sets[g.set], g.ds.N, g.ds.D, g.seed, g.meth.Key, o.T, o.folds, o.maxTrainFor(g.meth.Key), describeGrid(g.meth, o))
}

// lookup fills g's results from the cache; false if absent.
func (c *cache) lookup(g *group, o *options) bool {
	if c == nil {
		return false
	}
	e, ok := c.entries[g.key(o)]
	if !ok {
		return false
	}
	for i, cand := range g.cands {
		if cand.Name == e.Best {
			g.best, g.cvMean, g.test, g.work, g.cached = i, e.CV, e.Test, time.Duration(e.Work), true
			return true
		}
	}
	return false
}

// store appends g's results.
func (c *cache) store(g *group, o *options) error {
	if c == nil {
		return nil
	}
	e := cacheEntry{Key: g.key(o), Best: g.cands[g.best].Name, CV: g.cvMean, Test: g.test, Work: int64(g.work)}
	b, err := json.Marshal(e)
	if err != nil {
		return err
	}
	c.entries[e.Key] = e
	_, err = c.f.Write(append(b, '\n'))
	return err
}

func (c *cache) close() error {
	if c == nil {
		return nil
	}
	return c.f.Close()
}
