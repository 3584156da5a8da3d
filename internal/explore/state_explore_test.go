//go:build explore

package explore

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// tfState is the part of a state the check reads.
type tfState struct {
	Resources []struct {
		Mode, Type, Name string
		Instances        []struct {
			IndexKey   any    `json:"index_key"`
			Status     string `json:"status"`
			Attributes struct {
				ID    string `json:"id"`
				Input struct {
					Value any `json:"value"` // terraform_data's input, a dynamic value
				} `json:"input"`
			} `json:"attributes"`
		} `json:"instances"`
	} `json:"resources"`
}

// parseState is the etl_import instances of a state, and the inputs of
// its terraform_data triggers, by block.
func parseState(b []byte) (map[string]stateInst, map[string]int, error) {
	out, triggers := map[string]stateInst{}, map[string]int{}
	if len(b) == 0 {
		return out, triggers, nil
	}
	var st tfState
	if err := json.Unmarshal(b, &st); err != nil {
		return nil, nil, err
	}
	for _, r := range st.Resources {
		switch {
		case r.Mode == "managed" && r.Type == "etl_import":
			for _, in := range r.Instances {
				a := fmt.Sprintf("etl_import.%s[%v]", r.Name, in.IndexKey)
				out[a] = stateInst{ID: in.Attributes.ID, Tainted: in.Status == "tainted"}
			}
		case r.Mode == "managed" && r.Type == "terraform_data" && len(r.Instances) == 1:
			if v, ok := r.Instances[0].Attributes.Input.Value.(float64); ok {
				triggers[strings.TrimSuffix(r.Name, "_trigger")] = int(v)
			}
		}
	}
	return out, triggers, nil
}

// statePath is the local state file of workspace ws in dir.
func statePath(dir, ws string) string {
	if ws == "default" {
		return filepath.Join(dir, "terraform.tfstate")
	}
	return filepath.Join(dir, "terraform.tfstate.d", ws, "terraform.tfstate")
}

// readState is the state of dir (name: its state on the http backend's
// server, if remote) in workspace ws. A local state file caught empty or
// half written is read again, a few times.
func (r *run) readState(dir, name, ws string) (map[string]stateInst, map[string]int, error) {
	if r.st != nil {
		return parseState(r.st.State(name))
	}
	p := statePath(dir, ws)
	for try := 0; ; try++ {
		b, err := os.ReadFile(p)
		if os.IsNotExist(err) {
			return map[string]stateInst{}, map[string]int{}, nil
		} else if err != nil {
			return nil, nil, err
		}
		st, triggers, err := parseState(b)
		if err == nil && len(b) == 0 {
			err = errors.New("empty")
		}
		if err == nil {
			return st, triggers, nil
		} else if try == 10 {
			return nil, nil, fmt.Errorf("%s (%d bytes): not a state: %w", filepath.Base(p), len(b), err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// restoreState does after a kill what the guide says a user does with a
// local state file found empty: put the backup back (the state from before
// the killed apply), or remove the empty file if there is none (the state
// was new). It reports whether it did; a file neither empty nor JSON is a
// mismatch naming its size.
func restoreState(dir, ws string) (bool, error) {
	p := statePath(dir, ws)
	b, err := os.ReadFile(p)
	switch {
	case os.IsNotExist(err):
		return false, nil
	case err != nil:
		return false, err
	case len(strings.TrimSpace(string(b))) > 0:
		if !json.Valid(b) {
			return false, fmt.Errorf("%s after the kill is neither empty nor JSON (%d bytes)", filepath.Base(p), len(b))
		}
		return false, nil
	}
	backup, err := os.ReadFile(p + ".backup")
	if os.IsNotExist(err) {
		return true, os.Remove(p)
	} else if err != nil {
		return false, err
	}
	return true, os.WriteFile(p, backup, 0o644)
}
