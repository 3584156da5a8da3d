//go:build !purego

package flatfile

import "golang.org/x/sys/cpu"

// haveVectorLines: the CPU has the instructions linesAVX2 needs (AVX2,
// with the system saving its registers).
var haveVectorLines = cpu.X86.HasAVX2

// linesAVX2 looks at the units s[j], j from 2, 64 a step while a whole
// step remains, and stops before a step that holds a quote, or a LF one
// or two units after another LF (s[j-1] or s[j-2]): n is how many LFs the
// steps looked at hold, last the index of the last of them (0: none),
// done the index it stopped at (count_lines_amd64.s).
//
//go:noescape
func linesAVX2(s []byte) (n, last, done int)
