// Package rfbeam runs rfkit on Apache Beam (the Go SDK), for data no single
// machine holds: scoring a model file over a PCollection of rows, the RKS
// ridge fit by sufficient statistics accumulated over blocks of rows, a
// cross-validation grid fanned out as parallel work items, and the online
// learners rrf and fogd trained by iterative parameter mixing
// (OnlineModel). Every pipeline
// is tested in-process on the Prism runner; the same pipelines take the
// usual Beam flags (--runner, --endpoint, --environment_type) to run on
// Flink, Spark or Dataflow, which are not tested here.
//
// Results have the bits of one machine:
//
//   - Score's predictions are those of Model.Predict (Score, Probability)
//     on the same row, whatever the sharding; a row the model cannot
//     score (wrong length, NaN or ±Inf input, non-finite output) goes to
//     the dead-letter output with the reason instead of failing the job.
//   - RKSModel sums the standardisation statistics and the centred ridge
//     system in float64 within blocks of 1024 consecutive rows and exactly
//     across blocks, as rks.Fit does on one machine: on the rows of one
//     source in file order its model file is rks.Fit's, byte for byte,
//     whatever the sharding (tested on 10⁵ rows with 1, 4 and 16 shards).
//   - CrossValidate's scores, means and best setting are those of
//     cv.GridSearch (the rfkit cv command) on the same folds and seed.
//   - OnlineModel with one shard and Shuffle Disabled is a Learner run
//     over the rows in file order; with more shards it is an average of
//     models, not the one-machine run (its accuracy is compared in the
//     README).
//
// The package is a nested module (github.com/rfkit/rfkit/beam) so that
// the rfkit library keeps its own short list of dependencies.
package rfbeam
