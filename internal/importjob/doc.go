// Package importjob holds the rules of an import job, as plain Go that
// knows nothing of Terraform: which job a create may settle instead of
// starting one, and which jobs a killed apply left are dropped
// (ledger.go). The provider (internal/provider) reads Terraform's plans,
// states and private states into these facts, calls the rules, and writes
// back what they decide; the files of the journal are internal/localfile's.
//
// The docs state the same rules as tables (docs/guides/interrupted-applies.md, docs/guides/exactly-once.md,
// docs/resources/import.md); the tests hold one case per row.
package importjob
