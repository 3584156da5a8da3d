package httpstate

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"
)

func do(t *testing.T, method, url, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// A state is absent (404) until stored, then read back as stored; DELETE
// removes it.
func TestServer_storesStates(t *testing.T) {
	s := Start()
	defer s.Close()
	if code, _ := do(t, http.MethodGet, s.URL("a"), ""); code != http.StatusNotFound {
		t.Fatalf("GET of no state: %d, want 404", code)
	}
	if code, _ := do(t, http.MethodPost, s.URL("a"), `{"serial":1}`); code != http.StatusOK {
		t.Fatalf("POST: %d", code)
	}
	if code, body := do(t, http.MethodGet, s.URL("a"), ""); code != http.StatusOK || body != `{"serial":1}` {
		t.Fatalf("GET: %d %q", code, body)
	}
	if got := s.State("a"); !bytes.Equal(got, []byte(`{"serial":1}`)) || s.Writes("a") != 1 {
		t.Fatalf("State = %q, Writes = %d", got, s.Writes("a"))
	}
	if s.State("b") != nil {
		t.Fatal("another name shares the state")
	}
	do(t, http.MethodDelete, s.URL("a"), "")
	if code, _ := do(t, http.MethodGet, s.URL("a"), ""); code != http.StatusNotFound {
		t.Fatalf("GET after DELETE: %d, want 404", code)
	}
}

// A second LOCK is refused with 409 and the holder's information until
// UNLOCK (or Unlock, as force-unlock).
func TestServer_locks(t *testing.T) {
	s := Start()
	defer s.Close()
	if code, _ := do(t, "LOCK", s.URL("a"), `{"ID":"1"}`); code != http.StatusOK {
		t.Fatalf("LOCK: %d", code)
	}
	if code, body := do(t, "LOCK", s.URL("a"), `{"ID":"2"}`); code != http.StatusConflict || body != `{"ID":"1"}` {
		t.Fatalf("second LOCK: %d %q, want 409 with the holder", code, body)
	}
	do(t, "UNLOCK", s.URL("a"), `{"ID":"1"}`)
	if code, _ := do(t, "LOCK", s.URL("a"), `{"ID":"2"}`); code != http.StatusOK {
		t.Fatalf("LOCK after UNLOCK: %d", code)
	}
	s.Unlock("a")
	if code, _ := do(t, "LOCK", s.URL("a"), `not json`); code != http.StatusBadRequest {
		t.Fatalf("LOCK with no JSON: %d, want 400", code)
	}
}
