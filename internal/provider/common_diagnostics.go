package provider

import (
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
	"github.com/etl-provider/terraform-provider-etl/internal/flatfile"
	"github.com/etl-provider/terraform-provider-etl/internal/localfile"
)

// notConfigured adds the error for a call that needs the client while the
// provider has none: its settings were unknown when Configure ran. The
// error says how to make them known.
func notConfigured(diags *diag.Diagnostics) {
	diags.AddError("Provider not configured",
		"The etl provider has no client: its settings (hub, token_id, token_secret, base_url) were unknown when this ran, "+
			"for example because they come from a resource that is not created yet. Apply that resource first, "+
			"or set the settings from values known at plan time or from the ETL_* environment variables.")
}

// Summaries shared by several diagnostics.
const (
	// summaryDataChanged titles the error for data whose bytes differ, at
	// apply, from those the plan hashed.
	summaryDataChanged = "Data changed since plan"
	// summaryNotEncodable titles the error for inline content the declared
	// encoding cannot represent.
	summaryNotEncodable = "Content not representable in the encoding"
	// summaryRowWidth titles the error for a row not as wide as the
	// header, in rows or in a file.
	summaryRowWidth = "Row of unequal width"
	// summaryInvalidRegexp titles the error for a name_regex that does not
	// compile.
	summaryInvalidRegexp = "Invalid regular expression"
	// summaryListingTemplates titles the error for a failed request that
	// lists templates.
	summaryListingTemplates = "Listing templates failed"
)

// addRequestError adds the error for a failed request to the service,
// titled summary, worded by etl.Describe.
func addRequestError(diags *diag.Diagnostics, summary string, err error) {
	diags.AddError(summary, etl.Describe(err))
}

// addStartError adds the error for a failed start of a job from
// templateID. A request that reached the service but lost its answer
// (etl.JobMaybeCreatedError) may have created a job: the error says so
// and ends with advice; any other failure created none, and says that.
func addStartError(diags *diag.Diagnostics, templateID string, err error, advice string) {
	var maybe *etl.JobMaybeCreatedError
	if errors.As(err, &maybe) {
		diags.AddError("Import job may have been created",
			fmt.Sprintf("Starting a job from template %s: the request reached the service but its answer was lost (%v). "+
				"A job may have been created and may be importing the data. The request was not retried, so that the data is not imported twice, "+
				"and Terraform does not know the job's id.\n\n%s", templateID, maybe.Err, advice))
		return
	}
	addNoJobError(diags, templateID, err)
}

// addNoJobError adds the error for a start of a job from templateID that
// failed before any job was created.
func addNoJobError(diags *diag.Diagnostics, templateID string, err error) {
	diags.AddError(fmt.Sprintf("Starting an import job from template %s failed", templateID),
		"No job was created: "+etl.Describe(err))
}

// addFileError adds the error on file.path for a file that cannot be used
// (pathProblem).
func addFileError(diags *diag.Diagnostics, err error) {
	summary, detail := pathProblem(err)
	addOutsideError(diags, filePath("path"), summary, "file.path: "+detail)
}

// summaryUnreadable titles the error for every file that cannot be read.
const summaryUnreadable = "File not readable"

// pathProblem says what is wrong with the file at file.path when it cannot
// be used (a *localfile.PathError: missing, a directory, not a regular
// file, not readable) and what to fix: a summary and a detail. Problems
// with the file's bytes are flatfile.FileProblem values (fileProblemSummaries).
func pathProblem(err error) (summary, detail string) {
	var pe *localfile.PathError
	if !errors.As(err, &pe) {
		return summaryUnreadable, err.Error()
	}
	p := pe.Path
	switch {
	case pe.Kind == localfile.NotFound:
		return "File not found", fmt.Sprintf("The file %q does not exist (relative paths are relative to the directory Terraform runs in; use \"${path.module}/...\" for a file beside the configuration). "+
			"If another resource writes the file during apply, reference one of that resource's attributes that is unknown until apply, so that the file is read only then.", p)
	case pe.Kind == localfile.IsDir:
		return "Path is a directory", fmt.Sprintf("%q is a directory: file.path must name a file.", p)
	case pe.Kind == localfile.NotRegular:
		return "Not a regular file", fmt.Sprintf("%q is not a regular file (%s): file.path must name a file.", p, pe.Mode.Type())
	case pe.Op == localfile.OpOpen:
		return summaryUnreadable, fmt.Sprintf("The file %q cannot be opened: %s.", p, pe.Err)
	case pe.Op == localfile.OpRead:
		return summaryUnreadable, fmt.Sprintf("Reading %q failed: %s.", p, pe.Err)
	}
	return summaryUnreadable, fmt.Sprintf("The file %q cannot be read: %s.", p, pe.Err)
}

// fileProblemSummaries maps each problem flatfile.CheckFile finds in a file's
// bytes to the summary of its diagnostic.
var fileProblemSummaries = map[flatfile.FileProblem]string{
	flatfile.ProblemUnreadable: summaryUnreadable,
	flatfile.ProblemEncoding:   "File not in its declared encoding",
	flatfile.ProblemEmpty:      "Empty file",
	flatfile.ProblemNoHeader:   "No header row",
	flatfile.ProblemWidth:      summaryRowWidth,
	flatfile.ProblemQuote:      "Malformed quoting",
	flatfile.ProblemDelimiter:  "Delimiter does not match the format",
}

// addCheckDiagnostic adds the error for a CheckFile problem of inline
// content (checkDiagnostic).
func addCheckDiagnostic(diags *diag.Diagnostics, where, what string, err error) {
	if err != nil {
		at, summary, detail := checkDiagnostic(where, what, err)
		diags.AddAttributeError(at, summary, detail)
	}
}

// addFileCheckError adds the error for a CheckFile problem of the file at
// file.path (checkDiagnostic): the file lies outside the configuration.
func addFileCheckError(diags *diag.Diagnostics, what string, err error) {
	if err != nil {
		at, summary, detail := checkDiagnostic("path", what, err)
		addOutsideError(diags, at, summary, detail)
	}
}

// checkDiagnostic turns a CheckFile problem into a diagnostic on the
// attribute to fix: file.encoding for an encoding problem, file.format for
// a delimiter that does not match, else the data itself (file.<where>).
func checkDiagnostic(where, what string, err error) (at path.Path, summary, detail string) {
	var fe *flatfile.FileError
	if !errors.As(err, &fe) {
		return filePath(where), summaryUnreadable, fmt.Sprintf("%s cannot be checked: %s.", what, err)
	}
	at = filePath(where)
	switch fe.Problem {
	case flatfile.ProblemEncoding:
		at = filePath("encoding")
	case flatfile.ProblemDelimiter:
		at = filePath("format")
	}
	summary = fileProblemSummaries[fe.Problem]
	if summary == "" {
		summary = "Invalid file"
	}
	detail = fmt.Sprintf("%s (file.%s): %s.", what, where, fe.Detail)
	if fe.Fix != "" {
		detail += " Fix: " + fe.Fix + "."
	}
	return at, summary, detail
}

// addContentError adds the error on file.<name> for inline content the
// declared encoding cannot represent.
func addContentError(diags *diag.Diagnostics, name string, enc flatfile.Encoding, err error) {
	msg := err.Error()
	var ue *etl.UnencodableError
	if errors.As(err, &ue) && strings.HasSuffix(name, "_wo") {
		msg = ue.WriteOnly()
	}
	diags.AddAttributeError(filePath(name), summaryNotEncodable, fmt.Sprintf("file.%s cannot be encoded as %s: %s.", name, enc, msg))
}

// When a value must be known, for addStillUnknown.
const (
	atApply     = "at apply"
	whenInvoked = "when the action is invoked"
)

// addStillUnknown reports a value (at) still unknown when it must be known
// (when: atApply, whenInvoked). Terraform never sends one then, so it is a
// bug in the provider.
func addStillUnknown(diags *diag.Diagnostics, at path.Path, when string) {
	diags.AddAttributeError(at, "Value not known",
		fmt.Sprintf("%s still has unknown values %s: this is a bug in the provider; please report it.", attrName(at), when))
}
