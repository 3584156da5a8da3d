package etl_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

const (
	glTemplate    = "640101874288689152"
	glInput       = "640101874288689153"
	salesTemplate = "640101874288689156"
)

func startEmulator(t *testing.T, opts emulator.Options) (*emulator.Server, *etl.Client) {
	t.Helper()
	srv := emulator.New(opts)
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	c, err := etl.New(etl.Config{
		BaseURL: ts.URL, TokenID: emulator.DefaultTokenID, TokenSecret: emulator.DefaultTokenSecret,
		MaxRetries: 3, RetryWaitMin: time.Millisecond, RetryWaitMax: 50 * time.Millisecond,
		RequestTimeout: 2 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	return srv, c
}

func fileOf(content []byte, format etl.FileFormat, enc etl.Encoding, name string) etl.FileUpload {
	return etl.FileUpload{
		Input: etl.FileInput{PartName: "file", FileFormat: format, FileEncoding: enc, FileName: name},
		Open:  func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(string(content))), nil },
		Size:  int64(len(content)),
	}
}

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func TestEmulatorTemplates(t *testing.T) {
	_, c := startEmulator(t, emulator.Options{})
	ctx := context.Background()
	list, err := c.ListTemplates(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 4 || list[0].ID != glTemplate || list[0].Name != "GL Actuals" || list[0].ModelName != "Finance Plan" {
		t.Fatalf("templates = %+v", list)
	}
	if list[0].LastRunTime != nil || list[1].LastRunTime == nil || *list[1].LastRunTime != 1700000000000 {
		t.Fatalf("lastRunTime: %v %v", list[0].LastRunTime, list[1].LastRunTime)
	}
	if len(list[0].Steps) != 0 {
		t.Fatalf("list must not carry steps: %+v", list[0].Steps)
	}
	tpl, err := c.GetTemplate(ctx, glTemplate)
	if err != nil {
		t.Fatal(err)
	}
	if len(tpl.Steps) != 1 || tpl.Steps[0].InputID != glInput || tpl.Steps[0].StepName == "" {
		t.Fatalf("steps = %+v", tpl.Steps)
	}
	_, err = c.GetTemplate(ctx, "999")
	if !etl.IsNotFound(err) {
		t.Fatalf("unknown template: %v", err)
	}
}

func TestEmulatorStartWithFileEveryFormat(t *testing.T) {
	srv, c := startEmulator(t, emulator.Options{RunTime: 20 * time.Millisecond})
	ctx := context.Background()
	for _, tc := range []struct {
		format etl.FileFormat
		sep    string
	}{{etl.FormatCSV, ","}, {etl.FormatPSV, "|"}, {etl.FormatTDF, "\t"}} {
		content := []byte("Account" + tc.sep + "Amount\n4000" + tc.sep + "1\n4100" + tc.sep + "2\n")
		job, err := c.StartWithFile(ctx, glTemplate, fileOf(content, tc.format, etl.EncodingUTF8, "gl.txt"))
		if err != nil {
			t.Fatalf("%s: %v", tc.format, err)
		}
		if (job.Status != etl.StatusRunning && job.Status != etl.StatusQueued) || len(job.ID) != 19 || job.Name != "GL Actuals" || job.ModelID == "" {
			t.Fatalf("%s: job %+v", tc.format, job)
		}
		got, ok := srv.Job(job.ID)
		if !ok || got.Upload == nil {
			t.Fatalf("%s: emulator has no upload for %s", tc.format, job.ID)
		}
		u := got.Upload
		if u.Format != string(tc.format) || u.RowCount != 2 || strings.Join(u.Header, ",") != "Account,Amount" || u.SHA256 != sha(content) || u.Bytes != int64(len(content)) {
			t.Fatalf("%s: upload %+v", tc.format, u)
		}
	}
}

func TestEmulatorJobLifecycle(t *testing.T) {
	srv, c := startEmulator(t, emulator.Options{RunTime: 30 * time.Millisecond})
	ctx := context.Background()

	job, err := c.StartWithData(ctx, salesTemplate, etl.DataUpload{Rows: [][]string{{"Product", "Units"}, {"P1", "3"}}})
	if err != nil || job.Status != etl.StatusRunning {
		t.Fatalf("start: %+v %v", job, err)
	}
	if u := srv.Jobs()[0].Upload; u == nil || u.Kind != "data" || u.RowCount != 1 {
		t.Fatalf("data upload: %+v", u)
	}
	sub, err := c.SubmitJob(ctx, job.ID)
	if err != nil || sub.Status != etl.StatusSubmitted || sub.ID != job.ID {
		t.Fatalf("submit: %+v %v", sub, err)
	}
	deadline := time.Now().Add(5 * time.Second)
	var status etl.JobStatus
	for time.Now().Before(deadline) {
		if status, err = c.GetJobStatus(ctx, job.ID); err != nil || status.Final() {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err != nil || status != etl.StatusCompleted {
		t.Fatalf("status = %s, %v", status, err)
	}
	got, err := c.GetJob(ctx, job.ID)
	if err != nil || got.Status != etl.StatusCompleted || got.UpdatedDate == nil || *got.UpdatedDate < got.CreatedDate {
		t.Fatalf("get: %+v %v", got, err)
	}
	if _, err := c.CancelJob(ctx, job.ID); !etl.IsConflict(err) {
		t.Fatalf("cancel of a completed job: %v", err)
	}

	// A created job takes a file into one of its template's inputs.
	created, err := c.CreateJob(ctx, glTemplate)
	if err != nil || created.Status != etl.StatusEditing {
		t.Fatalf("create: %+v %v", created, err)
	}
	content := []byte("Account,Amount\n4000,5\n")
	if err := c.UploadJobFile(ctx, created.ID, glInput, fileOf(content, etl.FormatCSV, etl.EncodingUTF8, "gl.csv")); err != nil {
		t.Fatal(err)
	}
	if j, _ := srv.Job(created.ID); j.Upload == nil || j.Upload.SHA256 != sha(content) {
		t.Fatalf("upload to input: %+v", j.Upload)
	}
	if err := c.UploadJobFile(ctx, created.ID, "1", fileOf(content, etl.FormatCSV, etl.EncodingUTF8, "gl.csv")); !etl.IsNotFound(err) {
		t.Fatalf("unknown input: %v", err)
	}
	cancelled, err := c.CancelJob(ctx, created.ID)
	if err != nil || cancelled.Status != etl.StatusCancelled {
		t.Fatalf("cancel: %+v %v", cancelled, err)
	}
	if _, err := c.GetJob(ctx, "1234567890123456789"); !etl.IsNotFound(err) {
		t.Fatalf("unknown job: %v", err)
	}
}

func TestEmulatorErrorsReachTheCaller(t *testing.T) {
	srv, c := startEmulator(t, emulator.Options{MaxDataBytes: 1024})
	ctx := context.Background()

	bad, err := etl.New(etl.Config{BaseURL: c.BaseURL(), TokenID: emulator.DefaultTokenID, TokenSecret: "00000000000000000000000000000000", MaxRetries: 0})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bad.ListTemplates(ctx); !etl.IsUnauthorized(err) {
		t.Fatalf("bad secret: %v", err)
	}

	// 413 from the service when its limit is lower than the client's.
	rows := [][]string{{"Product", "Units"}}
	for i := 0; i < 100; i++ {
		rows = append(rows, []string{"product-with-a-long-name", "1"})
	}
	_, err = c.StartWithData(ctx, salesTemplate, etl.DataUpload{Rows: rows})
	if etl.StatusCode(err) != http.StatusRequestEntityTooLarge {
		t.Fatalf("over the limit: %v", err)
	}

	// 400: bytes that are not UTF-8 declared as UTF-8.
	_, err = c.StartWithFile(ctx, glTemplate, fileOf([]byte("Account,Amount\nMontr\xe9al,1\n"), etl.FormatCSV, etl.EncodingUTF8, "gl.csv"))
	var apiErr *etl.APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusBadRequest || apiErr.Message == "" {
		t.Fatalf("undecodable file: %v", err)
	}
	if n, _ := srv.Stats(); n != 0 {
		t.Fatalf("refused requests created %d jobs", n)
	}
}

func TestEmulatorFaultsNeverDuplicateJobs(t *testing.T) {
	content := []byte("Account,Amount\n4000,1\n")
	upload := fileOf(content, etl.FormatCSV, etl.EncodingUTF8, "gl.csv")
	cases := []struct {
		name         string
		fault        emulator.Fault
		wantJobs     int
		wantErr      bool
		maybeCreated bool
	}{
		{"429 with Retry-After", emulator.Fault{Endpoint: emulator.EndpointStartWithFile, Count: 2, Status: 429, RetryAfter: "0"}, 1, false, false},
		{"429 without Retry-After", emulator.Fault{Endpoint: emulator.EndpointStartWithFile, Count: 1, Status: 429}, 1, false, false},
		{"503", emulator.Fault{Endpoint: emulator.EndpointStartWithFile, Count: 3, Status: 503}, 1, false, false},
		{"502 is not retried", emulator.Fault{Endpoint: emulator.EndpointStartWithFile, Count: 1, Status: 502}, 0, true, true},
		{"answer dropped after the job was created", emulator.Fault{Endpoint: emulator.EndpointStartWithFile, Count: 1, DropAfterHandling: true}, 1, true, true},
		{"answer slower than the request timeout", emulator.Fault{Endpoint: emulator.EndpointStartWithFile, Count: 1, Latency: 3 * time.Second}, -1, true, true},
		{"503 until retries run out", emulator.Fault{Endpoint: emulator.EndpointStartWithFile, Status: 503}, 0, true, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv, c := startEmulator(t, emulator.Options{})
			srv.InjectFault(tc.fault)
			_, err := c.StartWithFile(context.Background(), glTemplate, upload)
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, want error %v", err, tc.wantErr)
			}
			var maybe *etl.JobMaybeCreatedError
			if errors.As(err, &maybe) != tc.maybeCreated {
				t.Fatalf("err = %v (%T), maybeCreated want %v", err, err, tc.maybeCreated)
			}
			jobs, _ := srv.Stats()
			if jobs > 1 {
				t.Fatalf("%d jobs: a retry duplicated the import", jobs)
			}
			if tc.wantJobs >= 0 && jobs != tc.wantJobs {
				t.Fatalf("%d jobs, want %d", jobs, tc.wantJobs)
			}
		})
	}
}

func TestEmulatorFaultsOnReadsAreRetried(t *testing.T) {
	srv, c := startEmulator(t, emulator.Options{})
	ctx := context.Background()
	job, err := c.StartWithData(ctx, salesTemplate, etl.DataUpload{Rows: [][]string{{"Product", "Units"}, {"P", "1"}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []emulator.Fault{
		{Endpoint: emulator.EndpointGetJob, Count: 1, DropAfterHandling: true},
		{Endpoint: emulator.EndpointGetJob, Count: 2, Status: 502},
		{Endpoint: emulator.EndpointGetJob, Count: 1, Status: 504},
		{Endpoint: emulator.EndpointGetJob, Count: 1, Latency: 3 * time.Second},
	} {
		srv.ClearFaults()
		srv.InjectFault(f)
		before := srv.Requests(emulator.EndpointGetJob)
		got, err := c.GetJob(ctx, job.ID)
		if err != nil || got.ID != job.ID {
			t.Fatalf("%+v: %v", f, err)
		}
		if n := srv.Requests(emulator.EndpointGetJob) - before; n < 2 {
			t.Fatalf("%+v: %d requests, want a retry", f, n)
		}
	}
}
