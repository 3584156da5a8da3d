// Package provider implements the etl Terraform provider: its configuration, data sources and resources.
package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// New returns a constructor of the provider for the given version.
// (placeholder: replaced by the provider implementation)
func New(version string) func() provider.Provider {
	return func() provider.Provider { return &etlProvider{version: version} }
}

type etlProvider struct{ version string }

func (p *etlProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "etl"
	resp.Version = p.version
}

func (p *etlProvider) Schema(context.Context, provider.SchemaRequest, *provider.SchemaResponse) {}

func (p *etlProvider) Configure(context.Context, provider.ConfigureRequest, *provider.ConfigureResponse) {
}

func (p *etlProvider) Resources(context.Context) []func() resource.Resource { return nil }

func (p *etlProvider) DataSources(context.Context) []func() datasource.DataSource { return nil }
