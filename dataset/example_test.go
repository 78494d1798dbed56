package dataset_test

import (
	"fmt"
	"strings"

	"github.com/rfkit/rfkit/dataset"
)

func ExampleReadCSV() {
	const data = "age,income,y\n" +
		"31,2.5,1\n" +
		"45,3.0,-1\n" +
		"27,1.2,1\n"
	ds, err := dataset.ReadCSV(strings.NewReader(data), dataset.CSVOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(ds.N, ds.D, ds.FeatureNames, ds.LabelName)
	fmt.Println(ds.Row(1), ds.Y)

	_, err = dataset.ReadCSV(strings.NewReader("age,y\n31,1\nabc,-1\n"), dataset.CSVOptions{})
	fmt.Println(err)
	// Output:
	// 3 2 [age income] y
	// [45 3] [1 -1 1]
	// dataset: line 3, column "age": "abc" is not a number
}

func ExampleReadLIBSVM() {
	const data = "# two samples\n" +
		"+1 1:0.5 3:2\n" +
		"-1 2:1 # trailing comment\n"
	ds, err := dataset.ReadLIBSVM(strings.NewReader(data), dataset.LIBSVMOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(ds.N, ds.D)
	fmt.Println(ds.Row(0), ds.Row(1), ds.Y)

	_, err = dataset.ReadLIBSVM(strings.NewReader("1 999999999:1"), dataset.LIBSVMOptions{})
	fmt.Println(err)
	// Output:
	// 2 3
	// [0.5 0 2] [0 1 0] [1 -1]
	// dataset: line 1: feature index 999999999 exceeds MaxFeatures (1048576)
}

func ExampleStratifiedKFold() {
	y := []float64{1, 1, 1, -1, -1, -1}
	folds, err := dataset.StratifiedKFold(y, 3, 42)
	if err != nil {
		fmt.Println(err)
		return
	}
	for i := range folds {
		fmt.Println(len(folds[i]), len(dataset.TrainIndices(folds, i)))
	}
	// Output:
	// 2 4
	// 2 4
	// 2 4
}
