package srff

// Constants the external tests read.
const DefaultLambdaMax = defaultLambdaMax
const DefaultLambdaMin = defaultLambdaMin
const DefaultValidation = defaultValidation
