// Package etl is a client for the ETL import API of the planning service,
// in the API's words: typed requests and answers (templates, jobs, their
// statuses and inputs), authentication, retries with backoff, streaming
// multipart uploads with their progress, and errors that carry the status,
// the service's message and the attempts made, every form of the token
// secret redacted (Redact, the one redaction path).
//
// A Client is built from a Config (New), which it checks with the API's
// rules (CheckHub, ValidateBaseURL). It knows nothing of Terraform: its
// caller reads the settings, words its typed errors (APIError,
// RequestError, HostNotFoundError, ProxyError, JobMaybeCreatedError) for
// its users, and says what to check for each. Reading and counting flat
// files (CSV, PSV, TDF in their encodings) is internal/flatfile's; a
// file's upload takes its format and encoding from there.
package etl
