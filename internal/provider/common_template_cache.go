package provider

import (
	"context"
	"slices"
	"sync"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
	"github.com/etl-provider/terraform-provider-etl/internal/importjob"
)

// The templates etl_import reads (the resource and the action: to resolve
// the keys of inputs, and to warn when one file goes to a template with
// several input steps), kept per client by the cache that Configure hands
// them with it. Terraform starts one provider process for each plan or
// apply, so each template is read once per command however many
// etl_import use it, and concurrent lookups of one template share one
// request. A failed read is not kept, and the cache keeps at most
// templateCacheSize templates: past it, the one read first goes.

// templateCacheSize is how many templates a cache keeps.
const templateCacheSize = 64

type templateKey struct {
	client *etl.Client
	id     string
}

type templateEntry struct {
	done chan struct{} // closed when t and err are set
	t    *etl.Template
	err  error
}

// templateCache holds the templates read through clients.
type templateCache struct {
	mu    sync.Mutex
	m     map[templateKey]*templateEntry
	order []templateKey // the keys of m, the oldest first
}

// newTemplateCache returns an empty cache.
func newTemplateCache() *templateCache {
	return &templateCache{m: map[templateKey]*templateEntry{}}
}

// get returns the template id with its steps, read through c once while
// the cache keeps it (a nil cache reads each time); callers must not
// change it.
func (tc *templateCache) get(ctx context.Context, c *etl.Client, id string) (*etl.Template, error) {
	if tc == nil {
		return c.GetTemplate(ctx, id)
	}
	k := templateKey{c, id}
	e, found := tc.entry(k)
	if found {
		select {
		case <-e.done:
			return e.t, e.err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	e.t, e.err = c.GetTemplate(ctx, id)
	if e.err != nil {
		tc.forget(k)
	}
	close(e.done)
	return e.t, e.err
}

// entry returns k's entry, or a new one that the caller reads (found
// false), making room for it.
func (tc *templateCache) entry(k templateKey) (*templateEntry, bool) {
	tc.mu.Lock()
	defer tc.mu.Unlock()
	if e, ok := tc.m[k]; ok {
		return e, true
	}
	if len(tc.order) >= templateCacheSize {
		delete(tc.m, tc.order[0]) // a lookup under way keeps its entry
		tc.order = tc.order[1:]
	}
	e := &templateEntry{done: make(chan struct{})}
	tc.m[k] = e
	tc.order = append(tc.order, k)
	return e, false
}

// forget removes k's entry.
func (tc *templateCache) forget(k templateKey) {
	tc.mu.Lock()
	defer tc.mu.Unlock()
	delete(tc.m, k)
	tc.order = slices.DeleteFunc(tc.order, func(o templateKey) bool { return o == k })
}

// templateOf is t as importjob's rules read it.
func templateOf(t *etl.Template) importjob.Template {
	out := importjob.Template{ID: t.ID, Name: t.Name, ModelID: t.ModelID, ModelName: t.ModelName, Steps: make([]importjob.Step, len(t.Steps))}
	for i, s := range t.Steps {
		out.Steps[i] = importjob.Step{Name: s.StepName, InputID: s.InputID, DataType: s.DataType}
	}
	return out
}
