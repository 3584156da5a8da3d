package provider

// Temporary: pins the chosen dependencies in go.mod/go.sum while the
// packages that use them are written. Deleted once they are all imported.
import (
	_ "github.com/hashicorp/go-retryablehttp"
	_ "github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	_ "github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	_ "github.com/hashicorp/terraform-plugin-framework-validators/objectvalidator"
	_ "github.com/hashicorp/terraform-plugin-framework-validators/resourcevalidator"
	_ "github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	_ "github.com/hashicorp/terraform-plugin-framework/providerserver"
	_ "github.com/hashicorp/terraform-plugin-go/tfprotov6"
	_ "github.com/hashicorp/terraform-plugin-log/tflog"
	_ "github.com/hashicorp/terraform-plugin-testing/helper/resource"
	_ "github.com/hashicorp/terraform-plugin-testing/knownvalue"
	_ "github.com/hashicorp/terraform-plugin-testing/plancheck"
	_ "github.com/hashicorp/terraform-plugin-testing/statecheck"
	_ "github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	_ "golang.org/x/text/encoding/charmap"
	_ "golang.org/x/text/encoding/unicode"
)
