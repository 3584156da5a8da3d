package explore

import (
	"errors"
	"os"
	"path/filepath"
)

// The data file of a path block at the end of a resource's life: there,
// deleted (a teardown on a fresh runner, a data folder removed first), or
// unreadable. The edit "file" sets it; writeConfig makes it so.

// A path block's file states, as the edit "file" sets them.
const (
	fileHere = iota
	fileGone
	fileUnreadable
)

// fileStates name the file states in a step's description.
var fileStates = []string{"here", "gone", "unreadable"}

// readable says whether a plan can read the data of block b: it is not a
// file at a path, or its file is there.
func readable(b block) bool { return b.Kind != kindPath || b.File == fileHere }

// srcOf is where block b's data comes from, as a plan compares it with
// the state's: the file's path, inline content, or rows.
func srcOf(b block) string {
	switch b.Kind {
	case kindPath:
		return dataPath(b)
	case kindContent:
		return "content"
	}
	return "rows"
}

// writeDataFile puts the data file of path block b into dir as its state
// says: want's bytes (written only when they differ, so that an unchanged
// file keeps its times), no file, or a file nobody can read (loop: a loop
// of symbolic links, which no one can open; else mode 000, which does not
// stop root).
func writeDataFile(dir string, b block, want []byte, loop bool) error {
	p := filepath.Join(dir, dataPath(b))
	switch b.File {
	case fileGone:
		return removeDataFile(p)
	case fileUnreadable:
		return makeUnreadable(p, want, loop)
	}
	if got, err := os.ReadFile(p); err == nil && string(got) == string(want) {
		return nil
	}
	if err := removeDataFile(p); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, want, 0o644)
}

// removeDataFile removes the file at p, and the loop an unreadable one
// left; none there is no error.
func removeDataFile(p string) error {
	for _, f := range []string{p, p + ".loop"} {
		if err := os.Remove(f); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return nil
}

// makeUnreadable makes the file at p (holding want) one that no process
// of this user can open: a loop of symbolic links (p and p.loop), or a
// file of mode 000, which stops every user but root.
func makeUnreadable(p string, want []byte, loop bool) error {
	if err := removeDataFile(p); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	if !loop {
		return os.WriteFile(p, want, 0)
	}
	if err := os.Symlink(filepath.Base(p)+".loop", p); err != nil {
		return err
	}
	return os.Symlink(filepath.Base(p), p+".loop")
}
