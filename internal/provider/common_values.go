package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Helpers on the framework's values that every kind of object uses.

// known reports whether v holds a value: neither null nor unknown.
func known(v types.String) bool { return !v.IsNull() && !v.IsUnknown() }

// stringList is ss as a list of strings.
func stringList(ss []string) types.List {
	vs := make([]attr.Value, len(ss))
	for i, s := range ss {
		vs[i] = types.StringValue(s)
	}
	return types.ListValueMust(types.StringType, vs)
}

// columnsType is the type of a row: a list of strings.
var columnsType = types.ListType{ElemType: types.StringType}

// stringsOf is vs as strings.
func stringsOf[T ~string](vs []T) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = string(v)
	}
	return out
}
