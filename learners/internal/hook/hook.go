// Package hook holds what package learners reaches in the learner kit
// (learners/internal/kit) without importing it: the kit imports learners,
// so the kit sets these from its init.
package hook

// CopyNamed returns a copy of the model m (a pointer to a learner's model
// built on kit.Base) that carries the feature names, or ok false when m is
// not built on kit.Base. It is set by the kit.
var CopyNamed func(m any, names []string) (out any, ok bool, err error)
