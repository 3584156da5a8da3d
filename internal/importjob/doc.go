// Package importjob holds the rules of an import job, as plain Go that
// knows nothing of Terraform: what defines a job (definition.go), what the
// plan of a change does (change.go; its warnings' words: warnings.go),
// what a plan does when what lies outside its configuration cannot be
// read, and which plan is a tainted object's (outside.go), what a job's
// status says of it (status.go), the content_sha256 of inputs and when new
// input ids change nothing (inputs.go), which step a key of inputs names
// (template.go), when an imported job adopts a configuration (adopt.go),
// how the counts of the data sent are told (counts.go),
// and the journal of started jobs: the jobs that exist on the
// service but that no Terraform state is known to hold yet, which entry a
// create settles instead of starting one and which it drops (claims.go,
// resume.go), and the protocol that keeps them (journal*.go: the Journal's
// commands over a Store, in files or in memory, and a liveness function).
//
// The provider (internal/provider) reads Terraform's plans, states and
// private states into these facts, calls the rules and the journal's
// commands, and writes back what they decide; the journal's files are
// internal/localfile's, bytes it does not read.
//
// The docs state the same rules as tables (docs/resources/import.md,
// docs/guides/exactly-once.md) and as that guide's section on the journal;
// the tests hold one case per row (doctables_test.go) and a check on fakes
// per rule of that section (journal_rules_test.go).
package importjob
