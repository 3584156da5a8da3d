package emulator

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"
)

func TestStartWithData(t *testing.T) {
	e := newEnv(t, Options{})
	body := `{"input":{"data":[["Account","Amount","Flag","Note"],["4000",100.50,true,null],[5000,1e3,false,"x"]]}}`
	r := e.startData(GLActualsTemplateID, body)
	m := checkJob(t, r, StatusRunning)
	j, _ := e.srv.Job(m["id"].(string))
	u := j.Upload
	if u == nil || u.Kind != "data" {
		t.Fatalf("upload = %+v", u)
	}
	want := [][]string{{"4000", "100.50", "true", ""}, {"5000", "1e3", "false", "x"}}
	if !reflect.DeepEqual(u.Rows, want) || u.RowCount != 2 || !reflect.DeepEqual(u.Header, []string{"Account", "Amount", "Flag", "Note"}) {
		t.Errorf("upload = %+v", u)
	}
	sum := sha256.Sum256([]byte(body))
	if u.Bytes != int64(len(body)) || u.SHA256 != hex.EncodeToString(sum[:]) {
		t.Errorf("bytes %d sha %s", u.Bytes, u.SHA256)
	}
	// A charset parameter is fine.
	// A charset parameter is fine; same model, so this one queues.
	r = e.request(http.MethodPost, base+"/templates/"+GLActualsTemplateID+"/startWithData", strings.NewReader(body), "Content-Type", "application/json; charset=utf-8")
	checkJob(t, r, StatusQueued)
}

func TestTooLarge(t *testing.T) {
	e := newEnv(t, Options{MaxDataBytes: 1000})
	big := `{"input":{"data":[["Account","Amount"],["` + strings.Repeat("x", 1000) + `","1"]]}}`
	// With Content-Length: refused up front.
	wantError(t, e.startData(GLActualsTemplateID, big), http.StatusRequestEntityTooLarge, "1000")
	// Chunked (no Content-Length): refused while reading.
	r := e.request(http.MethodPost, base+"/templates/"+GLActualsTemplateID+"/startWithData", io.MultiReader(strings.NewReader(big)), "Content-Type", jsonMIME)
	wantError(t, r, http.StatusRequestEntityTooLarge, "1000")
	// Just under the limit is fine.
	ok := `{"input":{"data":[["Account","Amount"],["` + strings.Repeat("x", 900) + `","1"]]}}`
	checkJob(t, e.startData(GLActualsTemplateID, ok), StatusRunning)
	if n, _ := e.srv.Stats(); n != 1 {
		t.Errorf("%d jobs, want 1", n)
	}
}

func TestBadRequestData(t *testing.T) {
	e := newEnv(t, Options{})
	dataCases := []struct{ name, body, want string }{
		{"empty data", `{"input":{"data":[]}}`, "empty"},
		{"malformed", `{"input":{"data":[["a"]`, "JSON"},
		{"not JSON", `Account,Amount`, "JSON"},
		{"no input", `{"data":[["a"]]}`, "input.data"},
		{"null data", `{"input":{"data":null}}`, "input.data"},
		{"row not array", `{"input":{"data":["Account"]}}`, "row 1"},
		{"cell object", `{"input":{"data":[["Account",{"x":1}]]}}`, "cell 2"},
		{"trailing", `{"input":{"data":[["a"]]}} {}`, "after"},
		{"empty body", ``, "JSON"},
	}
	for _, c := range dataCases {
		t.Run(c.name, func(t *testing.T) {
			wantError(t, e.startData(GLActualsTemplateID, c.body), http.StatusBadRequest, c.want)
		})
	}
	if n, _ := e.srv.Stats(); n != 0 {
		t.Errorf("%d jobs created by rejected uploads", n)
	}
}
