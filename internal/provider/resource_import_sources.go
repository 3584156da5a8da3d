package provider

import (
	"context"
	"strings"
	"sync"
)

// Where the data of an etl_import comes from: the file at file.path, or
// each input's file or rows. A plan that cannot read a file compares them
// with the state's (keepPriorData); the refreshes of a run remember them
// (refreshedSources).

// dataSources lists where m's data comes from, one entry per file or
// input, in key order: the top-level file's path, each input's file path
// or rows. Inline data and rows outside inputs have no entry: nothing
// outside the configuration is read for them.
func dataSources(ctx context.Context, m importModel) []string {
	var out []string
	if f, _ := fileFrom(ctx, m.File); f != nil && !f.Path.IsNull() {
		out = append(out, "file.path="+f.Path.String())
	}
	ins, _, _ := inputsFrom(ctx, m.Inputs)
	for _, in := range ins {
		if f, _ := fileFrom(ctx, in.File); f != nil {
			out = append(out, "inputs["+in.key+"].file.path="+f.Path.String())
			continue
		}
		out = append(out, "inputs["+in.key+"].rows="+in.Rows.String())
	}
	return out
}

// sourceKeys are the files m reads outside its configuration, each with
// its template: what tells the plan of a tainted object from a new one's.
func sourceKeys(ctx context.Context, m importModel) []string {
	var out []string
	for _, s := range dataSources(ctx, m) {
		if strings.Contains(s, "file.path=") {
			out = append(out, m.TemplateID.String()+" "+s)
		}
	}
	return out
}

// refreshedSources remembers, for one provider process, the files of the
// objects its refreshes read, with their jobs. Terraform and OpenTofu
// plan a tainted object as a new one, with no prior state; the refresh of
// the same run read it, so a plan whose files one of them read is that of
// an object in state (importjob.HoldsTainted). A new object that names
// the same file as one in state is taken for it too: its plan then warns
// where it would fail, and its apply fails as the file cannot be read.
type refreshedSources struct {
	mu   sync.Mutex
	jobs map[string]string // sourceKeys -> job id
}

// add remembers the files of m, whose job the refresh read.
func (s *refreshedSources) add(ctx context.Context, m importModel) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.jobs == nil {
		s.jobs = map[string]string{}
	}
	for _, k := range sourceKeys(ctx, m) {
		s.jobs[k] = m.ID.ValueString()
	}
}

// jobOf returns the job of an object a refresh read with one of the files
// keys; "" when none.
func (s *refreshedSources) jobOf(keys []string) string {
	if s == nil {
		return ""
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, k := range keys {
		if job := s.jobs[k]; job != "" {
			return job
		}
	}
	return ""
}
