package provider

import (
	"context"
	"sync"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// The templates etl_import reads (the resource and the action: to resolve
// the keys of inputs, and to warn when one file goes to a template with
// several input steps), kept per client for the life of the provider
// process. Terraform starts one provider process for each plan or apply,
// so each template is read once per command however many etl_import use
// it, and concurrent lookups of one template share one request. A failed
// read is not kept.

type templateKey struct {
	client *etl.Client
	id     string
}

type templateEntry struct {
	done chan struct{} // closed when t and err are set
	t    *etl.Template
	err  error
}

var templates = struct {
	sync.Mutex
	m map[templateKey]*templateEntry
}{m: map[templateKey]*templateEntry{}}

// cachedTemplate returns the template id with its steps, read through c
// once per process; callers must not change it.
func cachedTemplate(ctx context.Context, c *etl.Client, id string) (*etl.Template, error) {
	k := templateKey{c, id}
	templates.Lock()
	e, found := templates.m[k]
	if !found {
		e = &templateEntry{done: make(chan struct{})}
		templates.m[k] = e
	}
	templates.Unlock()
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
		templates.Lock()
		delete(templates.m, k)
		templates.Unlock()
	}
	close(e.done)
	return e.t, e.err
}
