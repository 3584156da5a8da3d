// Package localfile is the provider's layer of local files: what a file is
// (its identity, read from what the system opens), what its bytes hash to
// (read ahead in blocks, never whole into memory), the records of those
// hashes that let a plan skip reading an unchanged file (Record, DiskCache),
// and the verified send that hands a file's bytes to an upload only while
// they are the expected ones (Opened).
//
// It knows nothing of Terraform or HTTP: the provider turns its typed errors
// (PathError, ChangedError) into diagnostics and upload errors, and passes
// in the checks of a file's format as plain functions.
//
// One file is one file: its identity is read from what the system opens by
// the name given (never from the name cleaned as text), and its records
// are kept under the name the system resolves it to (symbolic links
// resolved, then ".." from where they lead).
//
// One file per concern: identity*.go (a file's identity, per system, and
// the path its records are kept under), disk_cache*.go (a hash with the
// identity it was taken for, kept across processes in a directory of the
// user's alone, and which one a read may trust instead of reading; who
// owns a file, per system), readahead.go (the one read-ahead reader),
// hash.go (hashing, with the head teed to a check and every byte to the
// Counter whose flatfile.Counts ride the hash's read and its record; the
// hook tests count whole reads with), send.go (opening a regular file, and
// the verified send), journal_dir.go (the files of the journal of started
// jobs: one per job, bytes it does not read, written whole or not at all,
// removed by exactly one remover; and whether a process still runs, with
// process*.go per system).
package localfile
