package importjob

import (
	"fmt"
	"strings"
)

// How the counts of the data a job sends are told (the action's progress
// says them as it sends): never a cell of it.

// DescribeCounts says how many data rows and bytes data holds, such as
// "3 data rows, 120 bytes", leaving out a count below zero (not known);
// "" when neither is known.
func DescribeCounts(rows, size int64) string {
	var parts []string
	if rows >= 0 {
		parts = append(parts, plural(rows, "data row", "data rows"))
	}
	if size >= 0 {
		parts = append(parts, fmt.Sprintf("%d bytes", size))
	}
	return strings.Join(parts, ", ")
}

// CountInputs says how many inputs there are: "1 input", "2 inputs".
func CountInputs(n int) string { return plural(int64(n), "input", "inputs") }

// plural is n with one after it when n is 1, else with many.
func plural(n int64, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
