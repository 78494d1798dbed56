// Package kit is the learner kit: what every rfkit learner is written with,
// so that each learner package supplies only its Config, its fit and its
// scoring body.
//
//   - Base (and ConfiguredBase, which also stores the Config), the one model
//     implementation: input checks, standardisation, label decoding,
//     Predict, Score, Probability and their batch forms, the model file,
//     WriteTo/ReadFrom, in the spirit of dmitryikh/leaves' single ensemble
//     type; a learner supplies a Body, its scoring of one standardised row
//     and the encoding of its parameters (Encoder, Decoder);
//   - Prepare and PrepareWeighted, the prologue every Fit shares (context,
//     Validate, CheckData, the labels, the standardisation);
//   - Check, the one Config checker, and SetDefault/ByTask for defaults;
//   - OnlineBase, the stream, statistics and epoch loop of the online
//     learners;
//   - SearchFit, the held-out comparison of settings and the probability
//     calibration;
//   - Define and DefineWeighted, which register a learner with package
//     learners from its typed Fit and Load.
//
// It is internal: package learners is the API of the models; this package
// is how the learners of this module are built (CONTRIBUTING.md).
package kit
