//go:build !race

package emulator

const streamBytes = 200 << 20
