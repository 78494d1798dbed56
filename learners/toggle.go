package learners

import (
	"fmt"
	"strconv"
)

// Toggle is a boolean Config option whose default is not false (rrf's and
// fogd's Shuffle and Standardize). A plain bool cannot be one: the zero
// Config must mean the defaults, so its zero value would have to be the
// default. A *bool could, but SetParam (hence the command line's
// -param shuffle=false) and Params cannot set a pointer, and an inverted
// bool (NoShuffle) would read -param noshuffle=true. Toggle's zero value,
// Default, selects the option's documented default; Enabled and Disabled
// override it. As text (SetParam, JSON) it is "true" or "false" (strconv's
// spellings) and "" for Default; in a JSON config, a Default field with
// `json:",omitempty"` is left out, so model files written before the
// option existed keep their bytes.
type Toggle int8

// The values of a Toggle.
const (
	Default  Toggle = iota // the option's documented default
	Enabled                // on
	Disabled               // off
)

// String is "true", "false" or "default".
func (t Toggle) String() string {
	switch t {
	case Enabled:
		return "true"
	case Disabled:
		return "false"
	case Default:
		return "default"
	}
	return fmt.Sprintf("Toggle(%d)", int8(t))
}

// MarshalText returns "true", "false" or "" (Default).
func (t Toggle) MarshalText() ([]byte, error) {
	switch t {
	case Enabled, Disabled:
		return []byte(t.String()), nil
	case Default:
		return nil, nil
	}
	return nil, fmt.Errorf("invalid toggle %d", int8(t))
}

// UnmarshalText accepts what strconv.ParseBool does, and "" or "default"
// for Default.
func (t *Toggle) UnmarshalText(b []byte) error {
	s := string(b)
	if s == "" || s == "default" {
		*t = Default
		return nil
	}
	v, err := strconv.ParseBool(s)
	if err != nil {
		return fmt.Errorf("%q is not a boolean (true/false)", s)
	}
	*t = Disabled
	if v {
		*t = Enabled
	}
	return nil
}
