package localfile

// ProcessAlive reports whether process pid exists; where that cannot be
// told (see processAlive), it says true: an entry held by a process that
// may still run is left to it.
func ProcessAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	return processAlive(pid)
}
