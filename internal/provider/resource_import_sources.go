package provider

import (
	"context"
	"strings"

	"github.com/etl-provider/terraform-provider-etl/internal/importjob"
)

// Where the data of an etl_import comes from: the file at file.path, or
// each input's file or rows. A plan that cannot read a file compares them
// with the state's (keepPriorData); the refreshes of a run remember them
// (importjob.Refreshed).

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

// refreshedSources are the sources a refresh of m remembers (sourceKeys),
// and for an imported job that has not adopted its configuration (its
// template_id null in state; a refused Delete replaces the private mark
// with the plan's), its model (importjob.ImportedSource).
func refreshedSources(ctx context.Context, m importModel) []string {
	out := sourceKeys(ctx, m)
	if m.TemplateID.IsNull() && known(m.ModelID) {
		out = append(out, importjob.ImportedSource(m.ModelID.ValueString()))
	}
	return out
}

// importedOf is the job of an imported object that has not adopted its
// configuration, refreshed in this process, of the model plan's template
// imports into (as the adoption checks it); "" when none, or when the
// template cannot be read.
func (r *importResource) importedOf(ctx context.Context, plan importModel) string {
	if r.client == nil || !known(plan.TemplateID) {
		return ""
	}
	t, err := r.client.CachedTemplate(ctx, plan.TemplateID.ValueString())
	if err != nil || t.ModelID == "" {
		return ""
	}
	return r.refreshed.JobOf(r.onService([]string{importjob.ImportedSource(t.ModelID)}))
}

// onService names sources on the service of the resource's client, as the
// journal names jobs (importjob.JobRef): a process that serves several
// configurations, such as the in-process tests', tells theirs apart.
func (r *importResource) onService(sources []string) []string {
	base := ""
	if r.client != nil {
		base = r.client.BaseURL()
	}
	out := make([]string, len(sources))
	for i, s := range sources {
		out[i] = base + " " + s
	}
	return out
}
