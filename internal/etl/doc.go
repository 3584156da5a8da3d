// Package etl is a client for the ETL import API of the planning service: typed requests and responses, auth, retries, streaming uploads and errors that carry status and body.
//
// One concern per file:
//
//   - client.go: Config, Client and New; baseurl.go: the hub and base URL rules;
//     settings.go: the settings' environment variables and what is wrong
//     with a setting, in the words a user reads; settings_config.go: the
//     settings as given, checked into a Config.
//   - templates.go, jobs.go, status.go: the endpoints and what they answer;
//     template_cache.go: the templates a client read, each once;
//     templates_find.go: templates by model and name, and the one a lookup
//     by name means;
//     jobs_wait.go: waiting for a job to end, with backoff;
//     jobs_confirm.go: a refused submit or cancel, decided by the job;
//     jobs_inputs.go: a created job's inputs loaded, cancelled on a failure.
//   - transport.go: one call across its attempts, and the written-request
//     trace; retry.go: the request kinds, the retry policy and the backoff.
//   - fileinput.go: a file upload's metadata;
//     encode_text.go: text written in an encoding;
//     multipart.go: the multipart body and the rule for its header values;
//     upload_progress.go: how far an upload is, told while it is sent.
//   - rows_json.go and rows_csv.go: the two encodings of rows (the JSON body
//     of start with data, the CSV file of rows sent as a file);
//     rows_payload.go: which of the two is sent, and its SHA-256;
//     rows_check.go: the rows' shape.
//   - errors.go: the errors callers see; errors_hint.go: what a message adds
//     after a failed request's error; redact.go: the one redaction path.
package etl
