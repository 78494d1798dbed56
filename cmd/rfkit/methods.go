package main

// The learners the command offers, one blank import per package: each
// registers its methods with package learners in an init function, and the
// command finds them through learners.Methods; it has no other per-method
// code. When a learner package lands, add its line here (TestMethodsLinked
// fails until it is).
import (
	_ "github.com/rfkit/rfkit/learners/fogd"     // fogd
	_ "github.com/rfkit/rfkit/learners/gbrff"    // gbrff2, gbrff1
	_ "github.com/rfkit/rfkit/learners/kernel"   // kernel
	_ "github.com/rfkit/rfkit/learners/mfga"     // mfga
	_ "github.com/rfkit/rfkit/learners/nogd"     // nogd
	_ "github.com/rfkit/rfkit/learners/pbrff"    // pbrff
	_ "github.com/rfkit/rfkit/learners/prff"     // prff
	_ "github.com/rfkit/rfkit/learners/rfselect" // eerf, lkrf
	_ "github.com/rfkit/rfkit/learners/rks"      // rks
	_ "github.com/rfkit/rfkit/learners/rrf"      // rrf
	_ "github.com/rfkit/rfkit/learners/srff"     // srff
)
