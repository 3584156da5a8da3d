// Package explore holds the explorer of `make explore`: seeded random
// sequences of what users do to etl_import resources (edits of the
// configuration, CLI operations, workspaces, a second directory, adopting
// a job by id), of the end of a resource's life (its file deleted or made
// unreadable and put back, an adopted job's template edited, a template
// deleted on the service, then a destroy) and of what goes wrong (waits
// cut short, jobs ending in ERROR, a job the service ends on its own
// (ERROR, CANCELLED, EXPIRED: the next apply replaces it unless
// keep_failed keeps it), bursts of 429 and 503, terraform or its
// provider killed during an upload or a wait, Ctrl-C), run with a real
// Terraform or OpenTofu CLI against the emulator, with a local state file
// or the http backend, some starting with the previous release of the
// provider and upgrading, each step compared with a reference model
// written from the docs (docs/resources/import.md,
// docs/guides/interrupted-applies.md, docs/guides/exactly-once.md and
// docs/guides/import-jobs.md, the journal of started jobs included): an import happens exactly as often as the user asks.
//
// Everything is in _test.go files: the model, the checker, the shrinker and
// the reproducer writer (whose unit tests run in `make test`), and the CLI
// driver (build tag explore, run by `make explore`). Nothing here is
// compiled into the provider.
package explore
