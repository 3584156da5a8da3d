package provider

import (
	"context"
	"crypto/x509"
	"fmt"
	"regexp"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// maxRowDiagnostics bounds how many ragged rows are reported one by one.
const maxRowDiagnostics = 10

// rowsValidator checks rows at plan time: at least a header row, a header
// with at least one column, and every row as wide as the header. Unknown
// rows or cells are skipped (checked again once known).
type rowsValidator struct{}

func (rowsValidator) Description(context.Context) string {
	return "must hold a header row of column names first, and every row must have as many cells as the header"
}
func (v rowsValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (rowsValidator) ValidateList(_ context.Context, req validator.ListRequest, resp *validator.ListResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	// The rows as far as they are known: an unknown row is nil (skipped),
	// an unknown cell a placeholder (it counts, and is not a blank name).
	elems := req.ConfigValue.Elements()
	rows := make([][]string, len(elems))
	nullCell := false
	for i, e := range elems {
		l, ok := e.(types.List)
		if !ok || l.IsUnknown() {
			continue
		}
		if l.IsNull() {
			resp.Diagnostics.AddAttributeError(req.Path.AtListIndex(i), "Null row",
				fmt.Sprintf("rows[%d] is null: every row must be a list of cells, like the header row.", i))
			continue
		}
		cells := l.Elements()
		row := make([]string, len(cells))
		for j, c := range cells {
			s, ok := c.(types.String)
			switch {
			case !ok || s.IsUnknown():
				row[j] = "(unknown)"
			case s.IsNull():
				row[j] = "(null)"
				if !nullCell {
					nullCell = true
					resp.Diagnostics.AddAttributeError(req.Path.AtListIndex(i).AtListIndex(j), "Null cell",
						fmt.Sprintf("rows[%d][%d] is null: use \"\" for an empty cell.", i, j))
				}
			default:
				row[j] = s.ValueString()
			}
		}
		rows[i] = row
	}
	for _, p := range etl.CheckRows(rows, maxRowDiagnostics) {
		at := req.Path
		if p.Row >= 0 {
			at = at.AtListIndex(p.Row)
			if p.Cell >= 0 {
				at = at.AtListIndex(p.Cell)
			}
		}
		resp.Diagnostics.AddAttributeError(at, rowsProblemSummaries[p.Kind], p.Message+".")
	}
}

var rowsProblemSummaries = map[etl.RowsProblemKind]string{
	etl.RowsEmpty:           "Empty rows",
	etl.RowsEmptyHeader:     "Empty header row",
	etl.RowsEmptyColumnName: "Empty column name",
	etl.RowsWidth:           "Row of unequal width",
	etl.RowsMore:            "More rows of unequal width",
}

// regexpValidator checks that a known string compiles as a Go regular
// expression (RE2 syntax).
type regexpValidator struct{}

func (regexpValidator) Description(context.Context) string {
	return "must be a valid regular expression (RE2 syntax)"
}
func (v regexpValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (regexpValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if _, err := regexp.Compile(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid regular expression",
			fmt.Sprintf("%s is not a valid regular expression (RE2 syntax, https://github.com/google/re2/wiki/Syntax): %s.", attrName(req.Path), err))
	}
}

// attrName renders a path the way a user writes it, such as file.format.
func attrName(p path.Path) string { return p.String() }

var hubRegexp = regexp.MustCompile(`^[a-z0-9]+$`)

// hubValidator checks a known hub at plan time; unknown and null pass.
type hubValidator struct{}

func (hubValidator) Description(context.Context) string {
	return "must be lower-case letters and digits, such as us2"
}

func (v hubValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (hubValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if !hubRegexp.MatchString(req.ConfigValue.ValueString()) {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid hub",
			fmt.Sprintf("The hub %q is not valid: use the lower-case region name the token was issued on, such as us1, us2, us3, us5, ca3, eu1 or eu2 (attribute hub, environment variable %s).", req.ConfigValue.ValueString(), EnvHub))
	}
}

// baseURLValidator checks a known base URL at plan time.
type baseURLValidator struct{}

func (baseURLValidator) Description(context.Context) string {
	return "must be an absolute https URL, or http to a loopback host"
}

func (v baseURLValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (baseURLValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if _, err := etl.ValidateBaseURL(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid base_url",
			fmt.Sprintf("%s (attribute base_url, environment variable %s).", err, EnvBaseURL))
	}
}

// parseDuration parses a positive Go duration such as "500ms" or "2m".
func parseDuration(s string) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("%q is not a duration: use a number with a unit, such as \"500ms\", \"30s\" or \"2m\" (units ms, s, m, h)", s)
	}
	if d <= 0 {
		return 0, fmt.Errorf("%q must be longer than zero", s)
	}
	return d, nil
}

// durationValidator checks a known duration setting at plan time.
type durationValidator struct{}

func (durationValidator) Description(context.Context) string {
	return `must be a positive duration such as "500ms", "30s" or "2m"`
}

func (v durationValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (durationValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if _, err := parseDuration(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid "+req.Path.String(), fmt.Sprintf("%s: %s.", req.Path, err))
	}
}

// hasPEMCertificate reports whether b holds at least one PEM certificate
// that parses.
func hasPEMCertificate(b []byte) bool {
	return x509.NewCertPool().AppendCertsFromPEM(b)
}

// pemValidator checks known ca_cert_pem text at plan time.
type pemValidator struct{}

func (pemValidator) Description(context.Context) string {
	return "must hold at least one PEM certificate"
}

func (v pemValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (pemValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if !hasPEMCertificate([]byte(req.ConfigValue.ValueString())) {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid ca_cert_pem",
			"ca_cert_pem holds no PEM certificate: give the certificate authority's certificate as PEM text, from \"-----BEGIN CERTIFICATE-----\" to \"-----END CERTIFICATE-----\" (for example file(\"ca.pem\")), or use ca_cert_file.")
	}
}
