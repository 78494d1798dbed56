package learners

import (
	"encoding"
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// ParamInfo describes one settable Config field.
type ParamInfo struct {
	Name    string // the field name in lower case, the key SetParam takes
	Type    string // "int", "uint64", "float64", "bool", "string" or the Go type name of an enum
	Default string // the field's `default:"…"` tag, else its value in the Config passed to Params
	Doc     string // the field's `help:"…"` tag, else its type's (paramHelp)
}

// paramHelper is implemented by a Config field type documented once for
// every learner that has such a field (the linear read-out's Loss):
// Params gives a field of that type without a `help:"…"` or `default:"…"`
// tag the doc and default of ParamHelp (def "" meaning the field's value).
type paramHelper interface{ ParamHelp() (doc, def string) }

// paramHelp is the doc and default of a Config field of value x from its
// type: Missing and Threads, documented here once for every learner, or
// a paramHelper; "" for another type.
func paramHelp(x any) (doc, def string) {
	switch h := x.(type) {
	case Missing:
		return "NaN inputs: error or impute (replace by the training mean)", ""
	case Threads:
		return "goroutines of the fit (0 = GOMAXPROCS); the model is the same bits for any value", "0"
	case paramHelper:
		return h.ParamHelp()
	}
	return "", ""
}

var textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()

// params returns the settable fields of the struct cfg points to: exported
// fields of a supported type (signed and unsigned integers, floats, bools,
// strings and string-based enums, and types whose pointer implements
// encoding.TextUnmarshaler). Functions (Progress) and other types are
// skipped.
func params(cfg any) (reflect.Value, []reflect.StructField, error) {
	v := reflect.ValueOf(cfg)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return reflect.Value{}, nil, fmt.Errorf("config must be a non-nil pointer to a struct, got %T", cfg)
	}
	v = v.Elem()
	var fields []reflect.StructField
	for _, f := range reflect.VisibleFields(v.Type()) {
		if f.IsExported() && !f.Anonymous && settable(f.Type) {
			fields = append(fields, f)
		}
	}
	return v, fields, nil
}

func settable(t reflect.Type) bool {
	if reflect.PointerTo(t).Implements(textUnmarshaler) {
		return true
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64, reflect.Bool, reflect.String:
		return true
	}
	return false
}

// Params lists the settable fields of the Config cfg points to, in field
// order.
func Params(cfg any) []ParamInfo {
	v, fields, err := params(cfg)
	if err != nil {
		return nil
	}
	out := make([]ParamInfo, 0, len(fields))
	for _, f := range fields {
		p := ParamInfo{Name: strings.ToLower(f.Name), Type: typeName(f.Type), Doc: f.Tag.Get("help")}
		var def string
		if p.Doc == "" {
			p.Doc, def = paramHelp(v.FieldByIndex(f.Index).Interface())
		}
		if d, ok := f.Tag.Lookup("default"); ok {
			p.Default = d
		} else if p.Default = def; def == "" {
			p.Default = format(v.FieldByIndex(f.Index))
		}
		out = append(out, p)
	}
	return out
}

func typeName(t reflect.Type) string {
	if t.PkgPath() == "" || strings.Contains(t.PkgPath(), "/internal/") {
		// predeclared (int, float64, …), or a type shared through an
		// internal package, whose path means nothing to a user (Loss)
		return t.Name()
	}
	return t.String()
}

func format(v reflect.Value) string {
	if m, ok := v.Interface().(encoding.TextMarshaler); ok {
		if b, err := m.MarshalText(); err == nil {
			return string(b)
		}
	}
	return fmt.Sprint(v.Interface())
}

// SetParam sets the field of the Config cfg points to whose name matches
// key case-insensitively, parsing value for the field's type (integers in
// decimal, floats as strconv.ParseFloat, bools as strconv.ParseBool, enums
// through their UnmarshalText). Ranges are the Config's Validate's business.
// An unknown key is an error that lists the valid names.
func SetParam(cfg any, key, value string) error {
	v, fields, err := params(cfg)
	if err != nil {
		return err
	}
	for _, f := range fields {
		if strings.EqualFold(f.Name, key) {
			if err := set(v.FieldByIndex(f.Index), value); err != nil {
				return fmt.Errorf("parameter %s: %w", strings.ToLower(f.Name), err)
			}
			return nil
		}
	}
	valid := make([]string, len(fields))
	for i, f := range fields {
		valid[i] = strings.ToLower(f.Name)
	}
	return fmt.Errorf("unknown parameter %q (valid: %s)", key, strings.Join(valid, ", "))
}

func set(f reflect.Value, s string) error {
	if u, ok := f.Addr().Interface().(encoding.TextUnmarshaler); ok {
		return u.UnmarshalText([]byte(s))
	}
	switch f.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, err := strconv.ParseInt(s, 10, f.Type().Bits())
		if err != nil {
			return fmt.Errorf("%q is not a %d-bit integer", s, f.Type().Bits())
		}
		f.SetInt(n)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, err := strconv.ParseUint(s, 10, f.Type().Bits())
		if err != nil {
			return fmt.Errorf("%q is not a %d-bit unsigned integer", s, f.Type().Bits())
		}
		f.SetUint(n)
	case reflect.Float32, reflect.Float64:
		x, err := strconv.ParseFloat(s, f.Type().Bits())
		if err != nil {
			return fmt.Errorf("%q is not a number", s)
		}
		f.SetFloat(x)
	case reflect.Bool:
		b, err := strconv.ParseBool(s)
		if err != nil {
			return fmt.Errorf("%q is not a boolean (true/false)", s)
		}
		f.SetBool(b)
	case reflect.String:
		f.SetString(s)
	default: // params filters the kinds
		return fmt.Errorf("unsupported type %s", f.Type())
	}
	return nil
}
