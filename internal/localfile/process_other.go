//go:build !unix && !windows

package localfile

// processAlive cannot tell here: a process is taken to be alive.
func processAlive(int) bool { return true }
