package localfile

import (
	"errors"
	"io"
)

// errCheckDone is what the tee's writes see once the check has returned.
var errCheckDone = errors.New("check finished")

// headTee passes reads through and copies the first left bytes to w, then
// closes w. A failed write (the check is done) stops the copying.
type headTee struct {
	r    io.Reader
	w    *io.PipeWriter
	left int64
}

func (t *headTee) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	if t.w != nil && n > 0 {
		k := min(int64(n), t.left)
		if _, werr := t.w.Write(p[:k]); werr != nil {
			t.w = nil
		} else if t.left -= k; t.left == 0 {
			t.stop(nil)
		}
	}
	if err != nil {
		t.stop(err)
	}
	return n, err
}

// stop ends the copy: the check sees the end of the file (err nil or
// io.EOF) or the read error.
func (t *headTee) stop(err error) {
	if t.w == nil {
		return
	}
	if errors.Is(err, io.EOF) {
		err = nil
	}
	_ = t.w.CloseWithError(err)
	t.w = nil
}
