//go:build race

package featmap

// raceEnabled: the race detector drops sync.Pool items at random, so the
// pooled paths' allocation counts are not checked under -race.
const raceEnabled = true
