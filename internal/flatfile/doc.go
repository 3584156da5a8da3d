// Package flatfile reads delimited flat files (CSV, PSV, TDF) in the
// encodings the service accepts (UTF-8, UTF-16, Windows Latin-1), as the
// service parses them: it checks a file's head for the first problem the
// service would refuse it for, and counts its data rows and reads its
// header row's cells in the one read that hashes it. It knows nothing of
// HTTP nor of Terraform: the standard library and x/text's encodings.
//
// One scanner reads the records for both (scan.go): RowCounter counts
// with it, CheckFile checks with it, reading the records alike.
//
// One concern per file:
//
//   - format.go: the formats and encodings, as the service spells them, and
//     the format and encoding a file is checked and counted against, and
//     how far the plan checks it.
//   - scan.go: recordScanner, the records as encoding/csv reads them;
//     count_lines.go: its jumps from quote to quote and the lines between
//     (with count_lines_amd64.s, the vector scan of lines), and UTF-16
//     code units as its units.
//   - check.go: CheckFile, its problems, each record's checks (the
//     header's delimiter, the rows' widths) and its summary; decode.go:
//     byte order marks, and the bytes each encoding refuses.
//   - count.go: RowCounter, the Counts it finds, and the header row's cells.
package flatfile
