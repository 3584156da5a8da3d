// Package provider is Terraform's side of the etl provider: the provider
// and its configuration, the etl_import resource and action, and the data
// sources, on terraform-plugin-framework. It talks to the service through
// internal/etl and reads local files through internal/localfile; the
// import's rules (what defines a job, what a plan and an apply do with
// one) and the journal of started jobs (which job a killed apply left a
// create settles, and the protocol that keeps it) are internal/importjob's.
// None of them knows of Terraform: this package reads plans, states and
// private states into their facts, calls them, and writes back what they
// decide. It holds no state of its own: what a provider process keeps
// (the journal, the response gate) is its Server's, and what a provider
// configures (the client, which keeps the templates it read, and the
// tuning) is handed to the resource and the action by Configure.
//
// Files are named for the kind of Terraform object they serve, kind first
// (as terraform-provider-tls does), and then for what they hold:
//
//   - provider*.go: the provider: its schema, Configure, what it hands
//     the resource, the action and the data sources (dataSource, each
//     data source's plumbing), and secret masking in the logs
//     (provider.go); its settings, their environment variables and rules
//     (provider_config.go); the process that serves it, and how often it
//     polls and reports and the largest JSON body of rows it sends
//     (provider_server.go).
//   - resource_import*.go: the etl_import resource, and its inputs:
//     Create, Read, Update and Delete (resource_import.go);
//     its schema, the checks of its configuration, its write-only values
//     and what its errors say of a job it keeps (resource_import_schema.go);
//     its model, identity, ImportState and private state, every key
//     (resource_import_state.go);
//     what a plan decides: content_sha256, a change, a replacement, the
//     planned model (resource_import_plan.go);
//     what lies outside the configuration: data or a template that cannot
//     be read, an imported job that adopts it, a job gone
//     (resource_import_outside.go);
//     the journal of started jobs: where it is kept, what a Delete and a
//     Create tell it, the resumed job, what a plan records of a
//     replacement (resource_import_journal.go);
//     the data facts and the hash cache it keeps
//     (resource_import_data_facts.go);
//     its inputs: schema, plan, facts and steps (resource_import_inputs.go),
//     and their load (resource_import_inputs_load.go);
//     the spacing of the responses (resource_import_response_gate.go).
//   - action_import*.go: the etl_import action: its checks, invocation and
//     progress (action_import.go), its schema and model, made of the
//     resource's (action_import_schema.go).
//   - data_source_<name>*.go: the data source etl_<name>
//     (data_source_templates.go: etl_templates and etl_template).
//   - function_*.go: provider-defined functions.
//   - common_*.go: what several kinds share:
//     the file block: its model, schema, defaults and checks (common_file.go);
//     what an import sends: its spec, write-only data and rows
//     (common_import_spec.go);
//     content_sha256, the one place it is computed, and the hash cache as
//     a plan sees it (common_content_sha256.go);
//     the data facts (common_data_facts.go);
//     the job runner: the upload, start, submit, wait (common_job_runner.go);
//     the inputs: their model, plan-time checks and loading (common_inputs.go);
//     diagnostics and progress (common_diagnostics.go);
//     helpers on values, validators, timeouts, templates as the core reads
//     them (common_values.go).
//
// The arrows between files run down: a common_*.go file uses nothing a
// file of one kind declares (TestFilesArrowsRunDown).
//
// A test file sits beside the file it tests (<name>_test.go, and
// <name>_acc_test.go for acceptance tests against a Terraform CLI and the
// emulator); helpers_*_test.go hold what the tests share.
package provider
