package main

import (
	"context"
	"fmt"

	"github.com/rfkit/rfkit/internal/atomicfile"
	"github.com/rfkit/rfkit/learners/onnx"
)

// runExport writes a model file in another format (ONNX).
func runExport(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet("export", "rfkit export -format onnx -model FILE -out FILE",
		"Writes the model as an ONNX graph for onnxruntime and other ONNX runtimes:\n"+
			"one float64 input \"X\" [N, d] (the feature columns in the training order),\n"+
			"outputs \"label\" and \"probabilities\" for a classifier, \"variable\" for\n"+
			"regression, as scikit-learn's converters name them. The cosines are\n"+
			"computed in float32 (onnxruntime has no float64 Cos), so the outputs agree\n"+
			"with rfkit's to about 1e-7. The output file is replaced atomically.")
	format := fs.String("format", "onnx", "the output `FORMAT` (onnx)")
	modelPath := fs.String("model", "", "model `FILE` written by rfkit train")
	out := fs.String("out", "", "the output `FILE`")
	if err := fs.parse(args, e.stdout); err != nil {
		return err
	}
	switch {
	case *format != "onnx":
		return usagef("-format %q: the only format is onnx", *format)
	case *modelPath == "":
		return usagef("-model is required")
	case *out == "":
		return usagef("-out is required")
	}
	m, err := loadModel(*modelPath)
	if err != nil {
		return err
	}
	data, err := onnx.Export(m.Model)
	if err != nil {
		return fmt.Errorf("%s: %w", *modelPath, err)
	}
	if err := atomicfile.WriteBytes(ctx, *out, data); err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "wrote %s (%d bytes)\n", *out, len(data))
	return nil
}
