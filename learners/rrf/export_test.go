package rrf

// Constants the external tests read.
const DefaultEpochs = defaultEpochs
const DefaultRegressionEpochs = defaultRegressionEpochs
const MaxLogWidth = maxLogWidth
