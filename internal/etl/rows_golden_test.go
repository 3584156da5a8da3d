package etl_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"strconv"
	"testing"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// goldenRowSets are fixed row sets whose encodings are pinned below.
var goldenRowSets = map[string][][]string{
	"plain": {{"Account", "Amount"}, {"4000", "100.5"}, {"4010", "-20"}},
	"tricky": {
		{"Account", "Amount", "Memo", "Entity"},
		{"4000", "", `say "hi", twice`, "Montréal"},
		{"4010", "1,5", "line one\nline two", "Zürich €"},
		{"4020", "-3", "crlf\r\nend", "日本語"},
		{"4030", " lead", "trail\t", `""`},
		{"4040", "<&>", "back\\slash", "\u2028sep"},
		{"4050", "ctl\x00\x01\x1f", "bad\xffutf8", "😀"},
		{"", "", "", ""},
	},
	"one empty cell": {{"Only"}, {""}, {"x"}},
	"header only":    {{"Account", "Amount"}},
	"many rows":      manyGoldenRows(),
}

// manyGoldenRows is large enough that both encoders cross their internal
// buffer sizes several times.
func manyGoldenRows() [][]string {
	rows := [][]string{{"Account", "Entity", "Amount", "Memo"}}
	for i := range 6000 {
		memo := "memo " + strconv.Itoa(i)
		switch i % 5 {
		case 1:
			memo = `say "hi", twice`
		case 2:
			memo = "Montréal\n" + strconv.Itoa(i)
		case 3:
			memo = ""
		}
		rows = append(rows, []string{strconv.Itoa(4000 + i%1000), "Entity " + strconv.Itoa(i%97), strconv.Itoa(i*7%100003) + ".25", memo})
	}
	return rows
}

type golden struct {
	size int64
	sha  string
}

// The JSON body of start with data and the CSV file of rows sent as a file:
// content_sha256 in users' state is a hash of these bytes, so a changed
// byte would replace their imports. These values must never change.
var (
	goldenJSON = map[string]golden{
		"plain":          {73, "6f297745475d48c3b80fd3f21ec3b71b66e9f7e932f5c3a53b34175c410a1975"},
		"tricky":         {333, "32e582f1873aad640c34278bd225d57ff1b64413d8112fa261aa10ec4fe307e4"},
		"one empty cell": {40, "4f357eaa0053ceb5c2971390ddc1de969a270925f831c396d95a42eee2df2b34"},
		"header only":    {41, "8e9a2e6693a42f2ba8ebbe7294e2213aee4113aa38a4f8d638a78ddf4a1ae3d8"},
		"many rows":      {267182, "d192007d06c70bcca61db404b243dfff9abfc61d448829eb5fd853b266546c87"},
	}
	goldenCSV = map[string]golden{
		"plain":          {35, "b5e1317f2fdf4ec945afd576fc48484abe7bc06ee822f7a73ed7b6119597dfe1"},
		"tricky":         {222, "536dd139fda6dfb2d70bd32b4a8d861ea77ca42e2e3c11b448e251a30c7e17d7"},
		"one empty cell": {10, "ba030c49900bbcb59be4ef4b88c141b970289be6ed72821eb7624ee696986713"},
		"header only":    {15, "61a4261d788b79bfdbcbb532ad43ab4e65dece8e7fb3b20f621151e7cde7f667"},
		"many rows":      {210752, "9c93b6b99adf3c977722aeeb89b40ac26f7673aa1f14d9f988108b5aec4e656f"},
	}
)

// TestSmallRowsEncodingsAsText shows two pinned encodings as text.
func TestSmallRowsEncodingsAsText(t *testing.T) {
	d := etl.DataUpload{Rows: goldenRowSets["plain"]}
	var j, c bytes.Buffer
	_, _ = d.WriteTo(&j)
	_, _ = d.WriteCSV(&c)
	if want := `{"input":{"data":[["Account","Amount"],["4000","100.5"],["4010","-20"]]}}`; j.String() != want {
		t.Errorf("JSON %s, want %s", j.String(), want)
	}
	if want := "Account,Amount\n4000,100.5\n4010,-20\n"; c.String() != want {
		t.Errorf("CSV %q, want %q", c.String(), want)
	}
	d = etl.DataUpload{Rows: goldenRowSets["one empty cell"]}
	c.Reset()
	_, _ = d.WriteCSV(&c)
	if want := "Only\n\"\"\nx\n"; c.String() != want {
		t.Errorf("CSV %q, want %q", c.String(), want)
	}
}

func hashOf(b []byte) golden {
	s := sha256.Sum256(b)
	return golden{int64(len(b)), hex.EncodeToString(s[:])}
}

func TestRowsEncodingsAreGolden(t *testing.T) {
	for name, rows := range goldenRowSets {
		d := etl.DataUpload{Rows: rows}
		var j, c bytes.Buffer
		if _, err := d.WriteTo(&j); err != nil {
			t.Fatal(err)
		}
		if _, err := d.WriteCSV(&c); err != nil {
			t.Fatal(err)
		}
		rc, _ := d.CSVFile().Open()
		streamed, _ := io.ReadAll(rc)
		if !bytes.Equal(streamed, c.Bytes()) {
			t.Errorf("%s: the streamed CSV differs from WriteCSV", name)
		}
		if got, want := hashOf(j.Bytes()), goldenJSON[name]; got != want {
			t.Errorf("%s: JSON rows encoding is %d bytes, sha256 %s; pinned %d bytes, %s", name, got.size, got.sha, want.size, want.sha)
		}
		if got, want := hashOf(c.Bytes()), goldenCSV[name]; got != want {
			t.Errorf("%s: CSV rows encoding is %d bytes, sha256 %s; pinned %d bytes, %s", name, got.size, got.sha, want.size, want.sha)
		}
	}
}
