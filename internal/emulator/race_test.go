//go:build race

package emulator

// The race detector slows the hot path down several times: stream less.
const streamBytes = 48 << 20
