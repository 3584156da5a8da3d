package provider

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
	"github.com/etl-provider/terraform-provider-etl/internal/etl/jobstatus"
	"github.com/etl-provider/terraform-provider-etl/internal/flatfile"
	"github.com/etl-provider/terraform-provider-etl/internal/localfile"
)

// What the provider tells its user of every kind of object: diagnostics,
// the errors found outside the configuration (outsideError), and the
// progress of an upload or a wait logged at INFO.

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

// explain words a failed request's error for its user: the error, then,
// each a sentence with a leading space, its hint (hintOf), then what to do
// when the service's certificate is not trusted, or else how many attempts
// were made and which settings bound them.
func explain(err error) string {
	s := err.Error() + "."
	if h := hintOf(err); h != "" {
		s += " Hint: " + h + "."
	}
	var certErr *tls.CertificateVerificationError
	var unknownAuth x509.UnknownAuthorityError
	var hostErr x509.HostnameError
	if errors.As(err, &certErr) || errors.As(err, &unknownAuth) || errors.As(err, &hostErr) {
		return s + " Hint: the service's TLS certificate is not trusted (verification is never turned off): for a private deployment with its own certificate authority, " +
			"set ca_cert_pem, or ca_cert_file (" + EnvCACertFile + "), to that authority's PEM certificate; otherwise check base_url."
	}
	switch attempts, retryable := etl.Attempts(err); {
	case attempts > 1:
		return s + fmt.Sprintf(" The request was made %d times (the first attempt and %d retries) before giving up: raise max_retries or retry_wait_max to keep trying longer.", attempts, attempts-1)
	case attempts == 1 && retryable:
		return s + " The request was made once and not retried (max_retries is 0, or it could have started a job)."
	}
	return s
}

// hintOf says what to check for a failed request: how to fix a proxy
// variable; the proxy, the hub or base_url of a host that does not exist;
// else what the service's status asks (statusHints); "" for nothing.
func hintOf(err error) string {
	var pe *etl.ProxyError
	var hn *etl.HostNotFoundError
	switch {
	case errors.As(err, &pe):
		return pe.Hint()
	case errors.As(err, &hn) && hn.ViaProxy():
		return fmt.Sprintf("the host %s is the proxy's, not the service's: check the HTTPS_PROXY, HTTP_PROXY and NO_PROXY environment variables", hn.Host)
	case hn != nil && hn.Hub != "":
		return fmt.Sprintf("check hub or the %s environment variable: hub %q gives the host %s, which does not exist; "+
			"set the hub the token was issued on, such as us1, us2, eu1 or ca3 (or base_url for a deployment at another address)", EnvHub, hn.Hub, hn.Host)
	case hn != nil:
		return fmt.Sprintf("check base_url or the %s environment variable: its host %s does not exist", EnvBaseURL, hn.Host)
	}
	return statusHints[etl.StatusCode(err)]
}

// statusHints says what to check for a status the service answered.
var statusHints = map[int]string{
	http.StatusUnauthorized:          "check the token id and secret, and the hub: a token only works on the hub it was issued on",
	http.StatusForbidden:             "the token or its user lacks a permission: listing templates needs Read Model, starting, submitting and cancelling jobs need Update Model, and the user needs at least Modeler access",
	http.StatusNotFound:              "check the template or job id: it is unknown to the service, or not visible to this token",
	http.StatusNotAcceptable:         "the service refused the Accept header: this is a client bug, please report it",
	http.StatusRequestEntityTooLarge: "the body is over the service's size limit: a JSON body of rows takes at most 25 MB (larger rows are normally sent as a CSV file automatically), so the service's limit may be lower here; write the data to a file and use file.path",
	http.StatusUnsupportedMediaType:  "the service refused the Content-Type: this is a client bug, please report it",
	http.StatusUnprocessableEntity:   "the upload was malformed: it needs a metadata part and exactly one file part named as metadata.input.partName",
	http.StatusBadRequest:            "check the file's format and encoding: the data must decode in the declared encoding",
	http.StatusConflict:              "the job is in a status that does not allow this action",
	http.StatusTooManyRequests:       "the service is rate limiting this token: retry later, or raise max_retries",
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
		"No job was created: "+explain(err))
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

// addCheckDiagnostic adds the error for a CheckFile problem, if any, of
// the data at file.<where>, named what, on the attribute to fix:
// file.encoding for an encoding problem, file.format for a delimiter that
// does not match, else the data itself. A problem of the file at
// file.path is an outsideError: the file lies outside the configuration.
func addCheckDiagnostic(diags *diag.Diagnostics, where, what string, err error) {
	var fe *flatfile.FileError
	at, summary, detail := filePath(where), summaryUnreadable, fmt.Sprintf("%s cannot be checked: %s.", what, err)
	switch {
	case err == nil:
		return
	case errors.As(err, &fe):
		switch fe.Problem {
		case flatfile.ProblemEncoding:
			at = filePath("encoding")
		case flatfile.ProblemDelimiter:
			at = filePath("format")
		}
		if summary = fileProblemSummaries[fe.Problem]; summary == "" {
			summary = "Invalid file"
		}
		if detail = fmt.Sprintf("%s (file.%s): %s.", what, where, fe.Detail); fe.Fix != "" {
			detail += " Fix: " + fe.Fix + "."
		}
	}
	if where == "path" {
		addOutsideError(diags, at, summary, detail)
	} else {
		diags.AddAttributeError(at, summary, detail)
	}
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
		fmt.Sprintf("%s still has unknown values %s: this is a bug in the provider; please report it.", at.String(), when))
}

// outsideError is an error found in what lies outside the configuration:
// a file it names that cannot be read or is not valid data, the template
// on the service. It is an error wherever it is added; the plan of an
// etl_import that holds a job reports it as a warning instead
// (importjob.PlanUnreadable, outsideAsWarnings).
type outsideError struct {
	at              path.Path
	summary, detail string
}

var _ diag.DiagnosticWithPath = outsideError{}

func (e outsideError) Severity() diag.Severity { return diag.SeverityError }
func (e outsideError) Summary() string         { return e.summary }
func (e outsideError) Detail() string          { return e.detail }
func (e outsideError) Path() path.Path         { return e.at }

// Equal reports whether o is the same error.
func (e outsideError) Equal(o diag.Diagnostic) bool {
	x, ok := o.(outsideError)
	return ok && x.summary == e.summary && x.detail == e.detail && x.at.Equal(e.at)
}

// addOutsideError adds an outsideError on the attribute at.
func addOutsideError(diags *diag.Diagnostics, at path.Path, summary, detail string) {
	diags.Append(outsideError{at: at, summary: summary, detail: detail})
}

// outsideErrors returns the outsideErrors among diags.
func outsideErrors(diags diag.Diagnostics) []outsideError {
	var out []outsideError
	for _, d := range diags {
		if e, ok := d.(outsideError); ok {
			out = append(out, e)
		}
	}
	return out
}

// outsideAsWarnings returns diags with each outsideError a warning on its
// attribute, its detail followed by note.
func outsideAsWarnings(diags diag.Diagnostics, note string) diag.Diagnostics {
	out := make(diag.Diagnostics, 0, len(diags))
	for _, d := range diags {
		if e, ok := d.(outsideError); ok {
			out.AddAttributeWarning(e.at, e.summary, e.detail+"\n\n"+note)
			continue
		}
		out.Append(d)
	}
	return out
}

// reportUpload logs the progress of a file's upload each interval until
// stop is called (etl.FileUpload.Reporting, which counts what up's upload
// sends from now on): bytes sent, rate and time left.
func reportUpload(ctx context.Context, up *preparedUpload, interval time.Duration) (stop func()) {
	if up == nil || up.opened == nil {
		return func() {}
	}
	name := up.opened.Name()
	f, stop := up.file.Reporting(interval, func(p etl.UploadProgress) {
		msg, fields := p.Describe()
		fields["path"] = name
		tflog.Info(ctx, "uploading "+name+": "+msg, fields)
	})
	*up.file = f
	return stop
}

// logWaiting logs at INFO that job jobID is still status after elapsed,
// waiting for it to finish (etl.JobWait.Waiting).
func logWaiting(ctx context.Context, jobID string, status jobstatus.JobStatus, elapsed time.Duration) {
	elapsed = elapsed.Round(time.Second)
	tflog.Info(ctx, fmt.Sprintf("import job %s is %s after %s; waiting for it to finish", jobID, status, elapsed),
		map[string]any{"job_id": jobID, "status": string(status), "elapsed_s": int64(elapsed.Seconds())})
}
