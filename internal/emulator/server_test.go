package emulator

import (
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestCustomOptions(t *testing.T) {
	e := newEnv(t, Options{TokenID: "abc", TokenSecret: "def", Templates: []Template{{ID: "1", Name: "T", ModelID: "9", ModelName: "M",
		Steps: []Step{{StepName: "S", DataType: "Values", InputID: "2"}}, RequiredColumns: []string{"X"}}}, MaxKeptRows: 1, Instant: true})
	r := e.get("/templates")
	wantError(t, r, http.StatusUnauthorized)
	req, _ := http.NewRequest(http.MethodGet, e.ts.URL+base+"/templates", nil)
	req.SetBasicAuth("abc", "def")
	res, err := http.DefaultClient.Do(req)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("custom token: %v %v", err, res)
	}
	res.Body.Close()
	body := `{"input":{"data":[["X"],["a"],["b"],["c"]]}}`
	req, _ = http.NewRequest(http.MethodPost, e.ts.URL+base+"/templates/1/startWithData", strings.NewReader(body))
	req.SetBasicAuth("abc", "def")
	req.Header.Set("Content-Type", jsonMIME)
	res, err = http.DefaultClient.Do(req)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("start: %v %v", err, res)
	}
	res.Body.Close()
	j := e.srv.Jobs()[0]
	if j.Upload.RowCount != 3 || len(j.Upload.Rows) != 1 || j.Status != StatusCompleted {
		t.Errorf("job = %+v", j)
	}
	if !slices.Equal(e.srv.Templates()[0].RequiredColumns, []string{"X"}) || e.srv.Templates()[0].LastRunTime == nil {
		t.Errorf("templates = %+v", e.srv.Templates())
	}
}

func TestOptionsDefaults(t *testing.T) {
	o := Options{}.withDefaults()
	if o.TokenID != DefaultTokenID || o.TokenSecret != DefaultTokenSecret || o.UserName != "Emulator User" ||
		o.ExpireAfter != time.Hour || o.MaxDataBytes != 25<<20 || o.ConflictStatus != http.StatusConflict ||
		o.SubmitMissingInputs != MissingInputsError || o.MissingMetadata != MissingMetadataReject ||
		o.RequiredColumns != RequiredColumnsOn || len(o.Templates) != len(DefaultTemplates()) || o.Now == nil {
		t.Errorf("defaults = %+v", o)
	}
	set := Options{TokenID: "a", UserName: "u", ExpireAfter: time.Minute, MaxDataBytes: 10, ConflictStatus: 400,
		SubmitMissingInputs: MissingInputsAccept, MissingMetadata: MissingMetadataDefault, RequiredColumns: RequiredColumnsOff,
		Templates: []Template{}}.withDefaults()
	if set.TokenID != "a" || set.UserName != "u" || set.ExpireAfter != time.Minute || set.MaxDataBytes != 10 ||
		set.ConflictStatus != 400 || set.SubmitMissingInputs != MissingInputsAccept || set.MissingMetadata != MissingMetadataDefault ||
		set.RequiredColumns != RequiredColumnsOff || len(set.Templates) != 0 {
		t.Errorf("set options changed: %+v", set)
	}
	for _, c := range []struct {
		o    Options
		want time.Duration
	}{{Options{}, 100 * time.Millisecond}, {Options{RunTime: time.Second}, time.Second}, {Options{RunTime: time.Second, Instant: true}, 0}} {
		if got := runTime(c.o); got != c.want {
			t.Errorf("runTime(%+v) = %v, want %v", c.o, got, c.want)
		}
	}
	for n, want := range map[int]int{0: 1000, -1: 0, 5: 5} {
		if got := keptRows(n); got != want {
			t.Errorf("keptRows(%d) = %d, want %d", n, got, want)
		}
	}
	// An empty template list serves no templates.
	e := newEnv(t, Options{Templates: []Template{}})
	if r := e.get("/templates"); r.status != 200 || string(r.body) != "[]\n" {
		t.Errorf("templates = %d %s", r.status, r.body)
	}
}
