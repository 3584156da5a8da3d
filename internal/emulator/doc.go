// Package emulator is the hosted ETL import REST API in memory: a Server
// (an http.Handler) that answers the same endpoints with the same shapes,
// for tests, the quickstart and benchmarks on loopback. Jobs follow the
// service's lifecycle on a clock (Options.Now, Options.RunTime), uploads are
// decoded and parsed as the service would, failures can be injected
// (Fault), and tests inspect what it received (Jobs, Requests).
//
// It knows nothing of the provider or the client (internal/etl): it stands
// in for a remote service, and imports only the standard library and
// golang.org/x/text. The command etl-emulator (cmd/etl-emulator) serves it
// on loopback for scripts and CI.
//
// One concern per file:
//
//   - server.go: Options, Server and New, the defaults, and request counts.
//   - routes.go: the endpoints, ServeHTTP and the routing; request.go: the
//     authentication, Accept and Content-Type checks; respond.go: JSON and
//     error answers, and the status recorder of the request log.
//   - handlers_templates.go: the /templates endpoints (list, get, create a
//     job, start with file or data); handlers_jobs.go: the /jobs endpoints
//     (get, status, submit, cancel, upload an input's file).
//   - templates.go: Template, Step, DefaultTemplates and their ids;
//     jobs.go: the job records, their snapshots (Job, Upload) and JSON;
//     lifecycle.go: the statuses and how a job moves through them.
//   - upload_data.go: the start-with-data JSON body, read as it streams;
//     upload_multipart.go: the multipart upload of a file, parts in any
//     order; spool.go: a part that comes before the metadata, saved to a
//     temporary file and parsed speculatively meanwhile.
//   - ahead.go: the read-ahead reader that hashes and counts an upload in
//     its own goroutine.
//   - decode.go: the file encodings, strictly decoded; parse.go: the flat
//     file parser and ParseFlatFile; fastpath.go: counting plainly
//     well-formed lines without encoding/csv; table.go: the header, widths
//     and required columns of the parsed rows.
//   - faults.go: fault injection; inspect.go: what tests read and force
//     (Jobs, Job, SetJobStatus, PurgeJob); tls.go: the self-signed
//     certificate and NewTLSServer.
//   - joblog.go: Options.JobLog, one line for every job that ends in ERROR
//     (its id, template and the reason), which the API itself never tells.
//
// The rules no public source shows are Options, each defaulting to the
// emulator's own choice, so that a client can be tried against the other
// plausible behaviour of the service: ConflictStatus (409, 400 or another
// 4xx, or ConflictUnchanged), SubmitMissingInputs, MissingMetadata and
// RequiredColumns. The command's flags of the same names set them.
//
// ahead.go's read-ahead reader is the emulator's own on purpose: the
// client-side one lives in internal/localfile, and sharing it would tie the
// emulator, the stand-in of a remote service, to the provider's layers.
package emulator
