// Package hook holds what package learners and the learner kit
// (learners/internal/kit) reach in each other without an import cycle:
// the kit imports learners, so the kit sets CopyNamed from its init, and
// learners sets Register, which the kit calls.
package hook

// CopyNamed returns a copy of the model m (a pointer to a learner's model
// built on kit.Base) that carries the feature names, or ok false when m is
// not built on kit.Base. It is set by the kit.
var CopyNamed func(m any, names []string) (out any, ok bool, err error)

// Register adds a learners.Method to the registry of package learners (it
// panics as that registry's register does). It is set by package learners
// and called by the kit's Define.
var Register func(m any)
