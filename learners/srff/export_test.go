package srff

// Constants the external tests read.
const DefaultLambdaMax = defaultLambdaMax
const DefaultLambdaMin = defaultLambdaMin
const DefaultValidation = defaultValidation

// SimplexFactors are the factors of the simplex-size search.
var SimplexFactors = simplexFactors
