package etl

import (
	"context"
	"net/http"
	"net/url"
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
