package etl

import (
	"encoding/json"
	"io"
	"runtime"
	"strconv"
	"testing"
)

// rows25MB returns rows whose JSON body is about 25 MB (just under the
// limit of start with data): accounts, entities, amounts and memos, some
// with characters that need escaping or are not ASCII.
func rows25MB() [][]string {
	rows := [][]string{{"Account", "Entity", "Amount", "Memo"}}
	size := 40
	for i := 0; size < MaxDataBodyBytes-200; i++ {
		memo := "memo " + strconv.Itoa(i)
		switch i % 4 {
		case 1:
			memo = `say "hi", twice`
		case 2:
			memo = "Montréal <&> " + strconv.Itoa(i)
		}
		row := []string{strconv.Itoa(4000 + i%1000), "Entity " + strconv.Itoa(i%97), strconv.Itoa(i%100003) + ".25", memo}
		rows = append(rows, row)
		size += len(appendRow(nil, row)) + 1
	}
	return rows
}

// peakHeap runs f and returns the growth of the live heap it caused, with
// what it returned still alive, sampled after f returns and at every GC.
func peakHeap(f func() any) uint64 {
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	keep := f()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(keep)
	if after.HeapAlloc < before.HeapAlloc {
		return 0
	}
	// TotalAlloc bounds the peak from above: everything allocated may have
	// been live at once.
	return after.TotalAlloc - before.TotalAlloc
}

// BenchmarkRowsEncode25MB compares encoding a 25 MB rows body with the
// client (the JSON body of start with data, and the CSV file that rows over
// the limit are sent as) against encoding/json.Marshal of the same
// [][]string. peak-B is the bytes allocated by one encoding (an upper bound
// of its peak memory), body-B the size of the body.
func BenchmarkRowsEncode25MB(b *testing.B) {
	rows := rows25MB()
	d := DataUpload{Rows: rows}
	bodySize := d.Size()
	run := func(b *testing.B, encode func() any) {
		b.SetBytes(bodySize)
		b.ReportAllocs()
		peak := peakHeap(encode)
		b.ResetTimer()
		for b.Loop() {
			_ = encode()
		}
		b.ReportMetric(float64(peak), "peak-B")
		b.ReportMetric(float64(bodySize), "body-B")
	}
	b.Run("json.Marshal", func(b *testing.B) {
		run(b, func() any {
			out, err := json.Marshal(map[string]any{"input": map[string]any{"data": rows}})
			if err != nil {
				b.Fatal(err)
			}
			return out
		})
	})
	b.Run("body", func(b *testing.B) {
		// What StartWithData sends: the whole body, encoded once.
		run(b, func() any {
			body, err := newJSONBody(d)
			if err != nil {
				b.Fatal(err)
			}
			rc, _ := body.open()
			return rc
		})
	})
	b.Run("csv", func(b *testing.B) {
		// What rows over the limit are sent as, streamed to the wire.
		f := d.CSVFile()
		run(b, func() any {
			rc, _ := f.Open()
			n, _ := io.Copy(io.Discard, rc)
			return n
		})
	})
}
