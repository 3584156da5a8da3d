package localfile

import (
	"io"

	"github.com/etl-provider/terraform-provider-etl/internal/flatfile"
)

// Counter counts what a flat file holds (its rows, its header row's
// cells) from its bytes, written to it in order, in chunks of any size, in
// the read that hashes the file (HashFile, HashReaderTo): the file is read
// once for both. flatfile.RowCounter is one.
type Counter interface {
	io.Writer
	// Result is called once, after the last byte: what the bytes hold.
	Result() flatfile.Counts
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
