package onnx

import (
	"encoding/binary"
	"math"

	"github.com/rfkit/rfkit/internal/pb"
)

// Field numbers of onnx.proto (ONNX IR).
const (
	// ModelProto
	modelIRVersion     = 1
	modelProducerName  = 2
	modelProducerVer   = 3
	modelDocString     = 6
	modelGraph         = 7
	modelOpsetImport   = 8
	modelMetadataProps = 14
	// OperatorSetIdProto
	opsetDomain  = 1
	opsetVersion = 2
	// StringStringEntryProto
	entryKey   = 1
	entryValue = 2
	// GraphProto
	graphNode        = 1
	graphName        = 2
	graphInitializer = 5
	graphDocString   = 10
	graphInput       = 11
	graphOutput      = 12
	// NodeProto
	nodeInput     = 1
	nodeOutput    = 2
	nodeName      = 3
	nodeOpType    = 4
	nodeAttribute = 5
	// AttributeProto
	attrName = 1
	attrI    = 3
	attrInts = 8
	attrType = 20
	// AttributeProto.AttributeType
	attrTypeInt  = 2
	attrTypeInts = 7
	// TensorProto
	tensorDims     = 1
	tensorDataType = 2
	tensorName     = 8
	tensorRawData  = 9
	// TensorProto.DataType
	typeFloat  = 1
	typeInt64  = 7
	typeBool   = 9
	typeDouble = 11
	// ValueInfoProto
	valueName      = 1
	valueType      = 2
	valueDocString = 3
	// TypeProto
	typeTensor = 1
	// TypeProto.Tensor
	tensorElemType = 1
	tensorShape    = 2
	// TensorShapeProto
	shapeDim = 1
	// TensorShapeProto.Dimension
	dimValue = 1
	dimParam = 2
)

// IR and operator-set versions written: IR 8 and opset 17 are read by
// onnx 1.12 (Debian's python3-onnx) and every later runtime.
const (
	irVersion    = 8
	opsetWritten = 17
)

// node is one operator application.
type node struct {
	op      string
	in, out []string
	ints    map[string][]int64 // INTS attributes
	int1    map[string]int64   // INT attributes
}

// tensor is a named constant (an initializer) of doubles, int64s or
// bools.
type tensor struct {
	name  string
	dims  []int64
	f64   []float64
	i64   []int64
	bools []bool
}

// valueInfo is a graph input or output: a tensor of elem type and shape
// (a dimension < 0 is the symbolic batch size "N").
type valueInfo struct {
	name string
	elem int
	dims []int64
	doc  string
}

func (n *node) encode(name string) *pb.Message {
	var m pb.Message
	for _, s := range n.in {
		m.String(nodeInput, s)
	}
	for _, s := range n.out {
		m.String(nodeOutput, s)
	}
	m.String(nodeName, name)
	m.String(nodeOpType, n.op)
	for _, k := range sortedKeys(n.int1) {
		var a pb.Message
		a.String(attrName, k)
		a.Int(attrI, n.int1[k])
		a.Uint(attrType, attrTypeInt)
		m.Message(nodeAttribute, &a)
	}
	for _, k := range sortedKeys(n.ints) {
		var a pb.Message
		a.String(attrName, k)
		for _, v := range n.ints[k] {
			a.Int(attrInts, v)
		}
		a.Uint(attrType, attrTypeInts)
		m.Message(nodeAttribute, &a)
	}
	return &m
}

func (t *tensor) encode() *pb.Message {
	var m pb.Message
	for _, d := range t.dims {
		m.Int(tensorDims, d)
	}
	var raw []byte
	switch {
	case t.i64 != nil:
		m.Uint(tensorDataType, typeInt64)
		for _, v := range t.i64 {
			raw = binary.LittleEndian.AppendUint64(raw, uint64(v))
		}
	case t.bools != nil: // one byte each, 0 or 1
		m.Uint(tensorDataType, typeBool)
		for _, v := range t.bools {
			c := byte(0)
			if v {
				c = 1
			}
			raw = append(raw, c)
		}
	default:
		m.Uint(tensorDataType, typeDouble)
		raw = make([]byte, 0, 8*len(t.f64))
		for _, v := range t.f64 {
			raw = binary.LittleEndian.AppendUint64(raw, math.Float64bits(v))
		}
	}
	m.String(tensorName, t.name)
	m.Raw(tensorRawData, raw)
	return &m
}

func (v *valueInfo) encode() *pb.Message {
	var shape pb.Message
	for _, d := range v.dims {
		var dim pb.Message
		if d < 0 {
			dim.String(dimParam, "N")
		} else {
			dim.Int(dimValue, d)
		}
		shape.Message(shapeDim, &dim)
	}
	var tt, typ, m pb.Message
	tt.Uint(tensorElemType, uint64(v.elem))
	tt.Message(tensorShape, &shape)
	typ.Message(typeTensor, &tt)
	m.String(valueName, v.name)
	m.Message(valueType, &typ)
	if v.doc != "" {
		m.String(valueDocString, v.doc)
	}
	return &m
}
