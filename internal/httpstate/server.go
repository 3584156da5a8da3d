// Package httpstate is a state server for Terraform's and OpenTofu's http
// backend, in memory, for tests on loopback: the remote backend of the
// acceptance tests and the explorer. Terraform writes a remote state as
// whole snapshots, every 20 seconds during an apply and at its end (not
// after each resource, as it writes a local state file), so a killed apply
// loses what it did since its last snapshot: what these tests need.
//
// It speaks the http backend's protocol: GET (200 with the state, 404 when
// there is none), POST (store), DELETE, and LOCK and UNLOCK on the same
// address (409 with the holder's lock information when locked). It knows
// nothing of the other packages.
package httpstate

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
)

// Server holds states by URL path, with their locks.
type Server struct {
	mu     sync.Mutex
	states map[string][]byte
	locks  map[string][]byte // the lock information of the holder
	writes map[string]int
	srv    *httptest.Server
}

// Start serves a new, empty Server on loopback until Close.
func Start() *Server {
	s := &Server{states: map[string][]byte{}, locks: map[string][]byte{}, writes: map[string]int{}}
	s.srv = httptest.NewServer(s)
	return s
}

// URL is the address of the state named name, for the backend's address,
// lock_address and unlock_address.
func (s *Server) URL(name string) string { return s.srv.URL + "/" + name }

// Close stops serving.
func (s *Server) Close() { s.srv.Close() }

// State is the state named name as last stored (nil: none).
func (s *Server) State(name string) []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return bytes.Clone(s.states[name])
}

// Writes is how many times the state named name was stored.
func (s *Server) Writes(name string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.writes[name]
}

// Unlock drops the lock of the state named name, as terraform
// force-unlock does: a killed apply leaves its lock behind.
func (s *Server) Unlock(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.locks, name)
}

// ServeHTTP answers one request of the http backend.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	name := r.URL.Path[1:]
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch r.Method {
	case http.MethodGet:
		st, ok := s.states[name]
		if !ok {
			w.WriteHeader(http.StatusNotFound)
			return
		}
		_, _ = w.Write(st)
	case http.MethodPost, http.MethodPut:
		s.states[name] = body
		s.writes[name]++
	case http.MethodDelete:
		delete(s.states, name)
	case "LOCK":
		s.lock(w, name, body)
	case "UNLOCK":
		delete(s.locks, name)
	default:
		w.WriteHeader(http.StatusMethodNotAllowed)
	}
}

// lock takes the lock of name for the holder info describes, or answers
// 409 with the current holder's information.
func (s *Server) lock(w http.ResponseWriter, name string, info []byte) {
	if held, ok := s.locks[name]; ok {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusConflict)
		_, _ = w.Write(held)
		return
	}
	if !json.Valid(info) {
		http.Error(w, "lock information is not JSON", http.StatusBadRequest)
		return
	}
	s.locks[name] = info
}
