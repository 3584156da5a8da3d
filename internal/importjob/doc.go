// Package importjob holds the rules of an import job, as plain Go that
// knows nothing of Terraform:
//
//   - definition.go: what defines a job (its parts, the content_sha256 of
//     inputs and when new input ids change nothing, which step a key of
//     inputs names), and how the counts of the data sent are told;
//   - plan.go: what the plan of a change to a live object does, a job that
//     imported nothing included (ReplacesFailed), what a job's status says
//     of what it has been through, when an imported job adopts a
//     configuration, and the words of the plan's warnings;
//   - outside.go: what a plan does when what lies outside its
//     configuration cannot be read, and which plan is a tainted object's;
//   - the journal of started jobs: the jobs that exist on the service but
//     that no Terraform state is known to hold yet. journal.go: its
//     commands over a Store and a liveness function (the state holds a
//     job, a delete hands one over, a journal that cannot be read);
//     resume.go: which entry a create settles instead of starting a job
//     and which it drops, and what it does with the job it settles;
//     journal_store.go: its entries, job references and keys, in files or
//     in memory.
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
