package fogd

import (
	"errors"

	"github.com/rfkit/rfkit/learners"
	"github.com/rfkit/rfkit/learners/internal/kit"

	"github.com/rfkit/rfkit/learners/internal/vec"
)

// stepMulti is the multiclass FOGD step on a checked row x of class index
// y: the Crammer–Singer hinge on m = f_y − f_r, r the best wrong class;
// when m < 1, w_y ← w_y + ηz and w_r ← w_r − ηz. Every row then adds to
// the running sum.
func (l *Learner) stepMulti(x []float64, y int) (learners.Outcome, error) {
	s := l.s
	l.f.scores(s, l.w, x)
	for _, v := range s.f {
		if v != v || v-v != 0 {
			return learners.Outcome{}, errors.New("the score is not finite (inputs too large); no step taken")
		}
	}
	var o learners.Outcome
	o.Prediction = l.classes[vec.Argmax(s.f, -1)]
	o.Mistake = o.Prediction != l.classes[y]
	r := vec.Argmax(s.f, y)
	if m := s.f[y] - s.f[r]; m < 1 {
		o.Loss = 1 - m
		a := float64(l.cfg.Eta * l.f.inv)
		l.add(y, a)
		l.add(r, -a)
	}
	for k, v := range l.w[:len(l.sum)] {
		l.sum[k] += v
	}
	l.steps++
	return o, nil
}

// add sets w_k ← w_k + a·z̃ for the features in l.s (z̃ = [cos, sin]).
func (l *Learner) add(k int, a float64) {
	D := l.f.D
	w := l.w[k*2*D : (k+1)*2*D]
	wc, ws := w[:D], w[D:]
	for j, c := range l.s.cos[:D] {
		wc[j] += float64(a * c)
	}
	for j, sn := range l.s.sin[:D] {
		ws[j] += float64(a * sn)
	}
}

var _ kit.MultiScorer = (*body)(nil)
