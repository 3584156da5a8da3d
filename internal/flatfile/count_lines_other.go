//go:build !amd64 || purego

package flatfile

// haveVectorLines: no vector scan of lines here; they are counted one by
// one (bytes.IndexByte).
const haveVectorLines = false

// linesAVX2 is never called where haveVectorLines is false: it looks at
// nothing and says so.
func linesAVX2([]byte) (n, last, done int) { return 0, 0, 2 }
