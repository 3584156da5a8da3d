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

// feeder writes blocks to a writer on a goroutine of its own, so that
// counting a block overlaps hashing it: give hands a block over, wait
// returns once the writer is done with it (the block may then be reused).
type feeder struct {
	w    io.Writer
	in   chan []byte
	done chan error
	err  error // the writer's first error; later blocks are not written
}

// startFeeder starts the goroutine writing to w; stop ends it.
func startFeeder(w io.Writer) *feeder {
	f := &feeder{w: w, in: make(chan []byte), done: make(chan error)}
	go f.run()
	return f
}

// run writes each block handed over and answers with the writer's error.
func (f *feeder) run() {
	for b := range f.in {
		_, err := f.w.Write(b)
		f.done <- err
	}
}

// give hands b over to be written; wait must follow before b is reused.
func (f *feeder) give(b []byte) {
	if f.err == nil {
		f.in <- b
	}
}

// wait waits until the block given last is written, and returns the
// writer's first error.
func (f *feeder) wait() error {
	if f.err == nil {
		f.err = <-f.done
	}
	return f.err
}

// stop ends the goroutine; no give may follow.
func (f *feeder) stop() { close(f.in) }
