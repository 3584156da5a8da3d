package provider

import (
	"context"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// template returns the template with its steps, read once per process
// (its templateCache, which the action shares); callers must not change it.
func (r *importResource) template(ctx context.Context, id string) (*etl.Template, error) {
	return r.templates.get(ctx, r.client, id)
}
