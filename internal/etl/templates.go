package etl

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"sync"
)

// Template is an import (ETL) template: a stored import definition bound to
// a model. Steps is filled only by GetTemplate.
type Template struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	LastRunTime *int64 `json:"lastRunTime"`
	ModelID     string `json:"modelId"`
	ModelName   string `json:"modelName"`
	Steps       []Step `json:"steps,omitempty"`
}

// Step is one step of a template, as returned by GetTemplate. InputID names
// the job input that UploadJobFile loads.
type Step struct {
	StepName string `json:"stepName"`
	DataType string `json:"dataType"`
	InputID  string `json:"inputId"`
}

// ListTemplates returns every template the token may use, in the service's
// order, without their steps (retried as a read).
func (c *Client) ListTemplates(ctx context.Context) ([]Template, error) {
	var out []Template
	err := c.call(ctx, request{method: http.MethodGet, path: "/templates", kind: kindRead}, &out)
	return out, err
}

// GetTemplate reads one template by id, with its steps (retried as a
// read).
func (c *Client) GetTemplate(ctx context.Context, templateID string) (*Template, error) {
	var out Template
	if err := c.call(ctx, request{method: http.MethodGet, path: templatePath(templateID), kind: kindRead}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// templatePath returns the path of a template below APIPath, the id
// path-escaped.
func templatePath(templateID string) string { return "/templates/" + url.PathEscape(templateID) }

// The templates a client reads through CachedTemplate: each is read once
// while the client's cache keeps it, and concurrent lookups of one
// template share one request. A failed read is not kept, and the cache
// keeps at most templateCacheSize templates: past it, the one read first
// goes. A provider builds a client for each configuration, and Terraform
// starts a provider process for each plan or apply, so each template is
// read once per command however many imports use it.

// templateCacheSize is how many templates a client's cache keeps.
const templateCacheSize = 64

// templateCache holds the templates a client read.
type templateCache struct {
	mu    sync.Mutex
	m     map[string]*templateEntry
	order []string // the keys of m, the oldest first
}

type templateEntry struct {
	done chan struct{} // closed when t and err are set
	t    *Template
	err  error
}

// CachedTemplate returns the template id with its steps (GetTemplate),
// read once while c's cache keeps it; callers must not change it.
func (c *Client) CachedTemplate(ctx context.Context, id string) (*Template, error) {
	tc := &c.templates
	e, found := tc.entry(id)
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
		tc.forget(id)
	}
	close(e.done)
	return e.t, e.err
}

// entry returns id's entry, or a new one that the caller reads (found
// false), making room for it.
func (tc *templateCache) entry(id string) (*templateEntry, bool) {
	tc.mu.Lock()
	defer tc.mu.Unlock()
	if e, ok := tc.m[id]; ok {
		return e, true
	}
	if tc.m == nil {
		tc.m = map[string]*templateEntry{}
	}
	if len(tc.order) >= templateCacheSize {
		delete(tc.m, tc.order[0]) // a lookup under way keeps its entry
		tc.order = tc.order[1:]
	}
	e := &templateEntry{done: make(chan struct{})}
	tc.m[id] = e
	tc.order = append(tc.order, id)
	return e, false
}

// forget removes id's entry.
func (tc *templateCache) forget(id string) {
	tc.mu.Lock()
	defer tc.mu.Unlock()
	delete(tc.m, id)
	tc.order = slices.DeleteFunc(tc.order, func(o string) bool { return o == id })
}

// TemplateFilter narrows the templates ListTemplates returns by model and
// name; an empty field (a nil NameRegex) lets every template through.
type TemplateFilter struct {
	ModelID, ModelName, Name string
	NameRegex                *regexp.Regexp
}

// FilterTemplates returns the templates f matches, in order.
func FilterTemplates(ts []Template, f TemplateFilter) []Template {
	return slices.DeleteFunc(slices.Clone(ts), func(t Template) bool {
		// t passes every field of f that is set: the same model id, model
		// name and name, and NameRegex matching within the name.
		return !((f.ModelID == "" || t.ModelID == f.ModelID) &&
			(f.ModelName == "" || t.ModelName == f.ModelName) &&
			(f.Name == "" || t.Name == f.Name) &&
			(f.NameRegex == nil || f.NameRegex.MatchString(t.Name)))
	})
}
