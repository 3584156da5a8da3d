package provider

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net/http"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
	"github.com/etl-provider/terraform-provider-etl/internal/localfile"
)

// notConfigured: the provider's settings were unknown when it was
// configured.
func notConfigured(diags *diag.Diagnostics) {
	diags.AddError("Provider not configured",
		"The etl provider has no client: its settings (hub, token_id, token_secret, base_url) were unknown when this ran, "+
			"for example because they come from a resource that is not created yet. Apply that resource first, "+
			"or set the settings from values known at plan time or from the ETL_* environment variables.")
}

// Summaries shared by several diagnostics.
const (
	summaryDataChanged      = "Data changed since plan"
	summaryNotEncodable     = "Content not representable in the encoding"
	summaryRowWidth         = "Row of unequal width"
	summaryInvalidRegexp    = "Invalid regular expression"
	summaryListingTemplates = "Listing templates failed"
)

// addRequestError: a request to the service failed.
func addRequestError(diags *diag.Diagnostics, summary string, err error) {
	diags.AddError(summary, err.Error()+"."+hintOf(err))
}

// adoptAdvice: what to do after the resource's start lost its answer.
const adoptAdvice = "Look for the job in the service's ETL job history. If it exists, adopt it instead of starting another: " +
	"terraform import etl_import.<name> <job id> (or an import block with that id), then apply. " +
	"If it does not, apply again."

// keptInState ends the error of a job that failed after it was started.
const keptInState = "The job stays in the Terraform state, marked tainted: the next apply replaces it with a new job " +
	"(run terraform untaint first to keep it instead). Destroying it never deletes imported data."

// hintOf is what a diagnostic adds after a failed request: the service
// error's hint, then the TLS hint or how many attempts were made.
func hintOf(err error) string {
	hint := ""
	var ae *etl.APIError
	if errors.As(err, &ae) {
		if h := ae.Hint(); h != "" {
			hint = " Hint: " + h + "."
		}
	}
	if t := tlsHint(err); t != "" {
		return hint + t
	}
	return hint + attemptsNote(err)
}

// addStartError: starting a job failed; it says whether a job may exist,
// and then what to do (advice).
func addStartError(diags *diag.Diagnostics, templateID string, err error, advice string) {
	var maybe *etl.JobMaybeCreatedError
	if errors.As(err, &maybe) {
		diags.AddError("Import job may have been created",
			fmt.Sprintf("Starting a job from template %s: the request reached the service but its answer was lost (%v). "+
				"A job may have been created and may be importing the data. The request was not retried, so that the data is not imported twice, "+
				"and Terraform does not know the job's id.\n\n%s", templateID, maybe.Err, advice))
		return
	}
	diags.AddError(fmt.Sprintf("Starting an import job from template %s failed", templateID),
		fmt.Sprintf("No job was created: %s.%s", err, hintOf(err)))
}

// addFileError: the file at file.path cannot be used.
func addFileError(diags *diag.Diagnostics, err error) {
	summary, detail := fileProblem(err)
	diags.AddAttributeError(filePath("path"), summary, "file.path: "+detail)
}

// summaryUnreadable titles every file that cannot be read.
const summaryUnreadable = "File not readable"

// fileProblem says what is wrong with a file that cannot be used (a
// *localfile.PathError) and what to fix: a summary and a detail.
func fileProblem(err error) (summary, detail string) {
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

// fileProblemSummaries titles each file problem.
var fileProblemSummaries = map[etl.FileProblem]string{
	etl.ProblemUnreadable: summaryUnreadable,
	etl.ProblemEncoding:   "File not in its declared encoding",
	etl.ProblemEmpty:      "Empty file",
	etl.ProblemNoHeader:   "No header row",
	etl.ProblemWidth:      summaryRowWidth,
	etl.ProblemQuote:      "Malformed quoting",
	etl.ProblemDelimiter:  "Delimiter does not match the format",
}

// addCheckDiagnostic turns a CheckFile problem into a diagnostic on the
// attribute to fix: file.encoding for an encoding problem, file.format for
// a delimiter that does not match, else the file itself (file.<where>).
func addCheckDiagnostic(diags *diag.Diagnostics, where, what string, err error) {
	if err == nil {
		return
	}
	var fe *etl.FileError
	if !errors.As(err, &fe) {
		diags.AddAttributeError(filePath(where), summaryUnreadable, fmt.Sprintf("%s cannot be checked: %s.", what, err))
		return
	}
	at := filePath(where)
	switch fe.Problem {
	case etl.ProblemEncoding:
		at = filePath("encoding")
	case etl.ProblemDelimiter:
		at = filePath("format")
	}
	summary := fileProblemSummaries[fe.Problem]
	if summary == "" {
		summary = "Invalid file"
	}
	detail := fmt.Sprintf("%s (file.%s): %s.", what, where, fe.Detail)
	if fe.Fix != "" {
		detail += " Fix: " + fe.Fix + "."
	}
	diags.AddAttributeError(at, summary, detail)
}

// tlsHint says what to do when the service's certificate is not trusted.
func tlsHint(err error) string {
	var certErr *tls.CertificateVerificationError
	var unknownAuth x509.UnknownAuthorityError
	var hostErr x509.HostnameError
	if errors.As(err, &certErr) || errors.As(err, &unknownAuth) || errors.As(err, &hostErr) {
		return " Hint: the service's TLS certificate is not trusted (verification is never turned off): for a private deployment with its own certificate authority, " +
			"set ca_cert_pem, or ca_cert_file (" + EnvCACertFile + "), to that authority's PEM certificate; otherwise check base_url."
	}
	return ""
}

// attemptsNote says, after a request that was retried until it gave up,
// how many attempts were made and which settings bound them.
func attemptsNote(err error) string {
	attempts, retryable := 0, false
	var ae *etl.APIError
	var re *etl.RequestError
	switch {
	case errors.As(err, &ae):
		attempts = ae.Attempts
		switch ae.StatusCode {
		case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
			retryable = true
		}
	case errors.As(err, &re):
		attempts, retryable = re.Attempts, true
	}
	switch {
	case attempts > 1:
		return fmt.Sprintf(" The request was made %d times (the first attempt and %d retries) before giving up: raise max_retries or retry_wait_max to keep trying longer.", attempts, attempts-1)
	case attempts == 1 && retryable:
		return " The request was made once and not retried (max_retries is 0, or it could have started a job)."
	}
	return ""
}

// addContentError: inline content (file.<name>) the encoding cannot represent.
func addContentError(diags *diag.Diagnostics, name string, err error) {
	diags.AddAttributeError(filePath(name), summaryNotEncodable, fmt.Sprintf("file.%s: %s.", name, err))
}
