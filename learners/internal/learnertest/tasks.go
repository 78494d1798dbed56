package learnertest

import "github.com/rfkit/rfkit/learners"

// AllTasks is Case.Tasks of a learner that fits the three tasks.
var AllTasks = []learners.Task{learners.Binary, learners.Regression, learners.Multiclass}
