// Package emulator is an in-memory emulator of the hosted ETL import REST API, for tests, quickstarts and benchmarks on loopback.
package emulator
