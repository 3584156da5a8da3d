// Package flatfile reads delimited flat files (CSV, PSV, TDF) in the
// encodings the service accepts (UTF-8, UTF-16, Windows Latin-1), as the
// service parses them: it checks a file's head for the first problem the
// service would refuse it for, and counts its data rows and reads its
// header row's cells in the one read that hashes it. It knows nothing of
// HTTP nor of Terraform: the standard library and x/text's encodings.
//
// One concern per file:
//
//   - format.go: the formats and encodings, as the service spells them;
//     target.go: the format and encoding a file is checked and counted
//     against, and how far the plan checks it.
//   - check.go: CheckFile, its problems and its summary; decode.go:
//     encodings and byte order marks; parse.go: quoting, the header,
//     widths; delimiter.go: a header whose delimiter is not the format's.
//   - count.go: RowCounter and the Counts it finds; count_header.go: the
//     header row's cells; count_scan.go: the records, as encoding/csv
//     reads them; count_quotes.go and count_lines.go: the jumps from quote
//     to quote and the lines between, with count_lines_amd64.s, the
//     vector scan of lines; count_utf16.go: UTF-16 code units as bytes.
package flatfile
