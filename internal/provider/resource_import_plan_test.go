package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// content_sha256 lives in users' state: a changed byte in how inline
// content or rows are encoded would plan a new job (a second import) for
// every existing etl_import. These goldens pin the hashes the provider
// plans today; a test that fails here is a breaking change, not a test to
// update. The content goldens equal independent encodings (the bytes as
// Go strings, unicode/utf16 with a BOM, charmap.Windows1252); the JSON and
// CSV goldens differ from encoding/json and encoding/csv where the etl
// encoders do by design (U+2028 and U+2029 written as they are; a cell
// ending in a space quoted).

// goldenText exercises what an encoder may get wrong: CRLF and LF, quotes,
// a delimiter inside quotes, a tab, non-ASCII Latin letters, the euro sign
// and other Windows-1252 characters in 0x80-0x9F, and a trailing newline.
const goldenText = "Account,Amount,City\r\n4000,\"1,5\",Montréal\n4010,-20,\"say \"\"hi\"\"\"\n4020,3\t,Zürich € „x“ ™ ÿ\n"

// goldenTextUTF16 adds characters outside the BMP (surrogate pairs in
// UTF-16) and a character Windows-1252 cannot represent.
const goldenTextUTF16 = goldenText + "4030,4,😀 Ω 中\n"

// TestContentSHA256Golden: the content_sha256 planned for inline content
// in each encoding and for rows (sent as JSON).
func TestContentSHA256Golden(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name string
		m    importModel
		want string
	}{
		{"content UTF-8", importModel{Rows: types.ListNull(types.ListType{ElemType: types.StringType}), File: goldenFile(t, goldenTextUTF16, "CSV", "UTF-8")},
			"542233c49002a0943859f7b25af9217d9f483b215ffbb3b62c55b94f193ea0db"},
		{"content UTF-16", importModel{Rows: types.ListNull(types.ListType{ElemType: types.StringType}), File: goldenFile(t, goldenTextUTF16, "CSV", "UTF-16")},
			"062737aa77a1c6df0435a2b81d1e5485cf00d193fc2840c1a37ca30fd6c5745b"},
		{"content Windows Latin-1", importModel{Rows: types.ListNull(types.ListType{ElemType: types.StringType}), File: goldenFile(t, goldenText, "CSV", "Windows Latin-1")},
			"107f80dfece6a147229d19b77794677f4c3f37a4bc7d2742a99eff246cd4dc04"},
		{"content PSV UTF-8", importModel{Rows: types.ListNull(types.ListType{ElemType: types.StringType}),
			File: goldenFile(t, strings.ReplaceAll("A,B\n1,2\n", ",", "|"), "PSV", "UTF-8")},
			"fc86f9438942e593639cc8d59691e3975f7d40ba7ce4ba5d107ee74d539c9538"},
		{"path, the same bytes as content UTF-8", importModel{Rows: types.ListNull(types.ListType{ElemType: types.StringType}), File: goldenPath(t, goldenTextUTF16)},
			"542233c49002a0943859f7b25af9217d9f483b215ffbb3b62c55b94f193ea0db"},
		{"rows JSON", importModel{Rows: goldenRowsList(t, goldenRows), File: types.ObjectNull(fileAttrTypes)},
			"76f5ecdd0117fa289aaf32e26d85f92541fef0fecb9cf3adf196cf3550573493"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, d := planContentHash(ctx, tc.m.spec(), writeOnlyData{}, nil, etl.MaxDataBodyBytes)
			if d.HasError() || got.IsUnknown() || got.IsNull() {
				t.Fatalf("planContentHash: %v %v", got, d)
			}
			if got.ValueString() != tc.want {
				t.Errorf("content_sha256 %s, want %s: the bytes sent for this input changed, which would replace users' imports", got.ValueString(), tc.want)
			}
		})
	}
}
