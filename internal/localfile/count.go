package localfile

import "io"

// Counter counts what a file holds (its rows, its header row's cells) from
// its bytes, written to it in order, in chunks of any size, in the read
// that hashes the file (HashFile, HashReaderTo): the file is read once
// for both. The caller's type implements it (the etl package's
// RowCounter), so that this package knows nothing of file formats.
type Counter interface {
	io.Writer
	// Finish is called once, after the last byte: the data rows, the
	// header row's cells (nil when they are unavailable, with noColumns
	// saying why; empty when the file has no header row), and whether
	// rows is exact (false when the file is malformed in a way that makes
	// it a best effort).
	Finish() (rows int64, columns []string, noColumns string, exact bool)
}

// countsOf returns what c finished with, for a file of size bytes, under
// key (what the counting was for, such as a format and an encoding).
func countsOf(c Counter, key string, size int64) *Counts {
	rows, columns, noColumns, exact := c.Finish()
	if columns == nil && noColumns == "" {
		noColumns = "unavailable"
	}
	return &Counts{Key: key, Columns: columns, NoColumns: noColumns, Rows: rows, Exact: exact, Size: size}
}

// countingBlocks is a blockSource that writes every block it yields to w,
// on the read-ahead goroutine, as soon as the block is read: counting a
// block overlaps the hashing of the blocks before it on the consumer's
// goroutine, with no handoff of its own and no wait. The blocks are
// yielded in order, so w sees the bytes in order; an error of w ends the
// reading.
type countingBlocks struct {
	src blockSource
	w   io.Writer
}

// next reads the next block from src and writes it to w.
func (c countingBlocks) next(buf []byte) (int, error) {
	n, err := c.src.next(buf)
	if n > 0 {
		if _, werr := c.w.Write(buf[:n]); werr != nil {
			return n, werr
		}
	}
	return n, err
}
