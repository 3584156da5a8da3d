package etl

import (
	"io"
	"strings"
)

// Template is an import (ETL) template: a stored import definition bound to
// a model. Steps is filled only by GetTemplate.
type Template struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	LastRunTime *int64 `json:"lastRunTime"`
	ModelID     string `json:"modelId"`
	ModelName   string `json:"modelName"`
	Steps       []Step `json:"steps,omitempty"`
}

// Step is one step of a template, as returned by GetTemplate. InputID names
// the job input that UploadJobFile loads.
type Step struct {
	StepName string `json:"stepName"`
	DataType string `json:"dataType"`
	InputID  string `json:"inputId"`
}

// Job is an ETL job. Ids are decimal strings of 18 or 19 digits: never
// numbers. Dates are epoch milliseconds; UpdatedDate may be null.
type Job struct {
	ID          string    `json:"id"`
	Name        string    `json:"name"`
	Status      JobStatus `json:"status"`
	ModelID     string    `json:"modelId"`
	ModelName   string    `json:"modelName"`
	CreatedDate int64     `json:"createdDate"`
	UpdatedDate *int64    `json:"updatedDate"`
	UserName    string    `json:"userName"`
}

// JobStatus is the status of a job.
type JobStatus string

// Every job status the service documents.
const (
	StatusEditing    JobStatus = "EDITING"
	StatusNotStarted JobStatus = "NOT_STARTED"
	StatusSubmitted  JobStatus = "SUBMITTED"
	StatusRunning    JobStatus = "RUNNING"
	StatusCompleted  JobStatus = "COMPLETED"
	StatusError      JobStatus = "ERROR"
	StatusCancelled  JobStatus = "CANCELLED"
	StatusWaiting    JobStatus = "WAITING"
	StatusQueued     JobStatus = "QUEUED"
	StatusExpired    JobStatus = "EXPIRED"
)

// AllStatuses lists every documented status, in the documentation's order.
var AllStatuses = []JobStatus{
	StatusEditing, StatusNotStarted, StatusSubmitted, StatusRunning, StatusCompleted,
	StatusError, StatusCancelled, StatusWaiting, StatusQueued, StatusExpired,
}

// Final reports whether no further transition can happen: COMPLETED, ERROR,
// CANCELLED or EXPIRED. An unknown status is treated as not final, so a
// caller that waits is bounded by its own timeout rather than misled.
func (s JobStatus) Final() bool {
	return s == StatusCompleted || s.Failed()
}

// Failed reports whether the status is a final failure: ERROR, CANCELLED or
// EXPIRED. (There is no "FAILED" status.)
func (s JobStatus) Failed() bool {
	return s == StatusError || s == StatusCancelled || s == StatusExpired
}

// FileFormat is the delimited format of a flat file.
type FileFormat string

// The flat file formats the service accepts.
const (
	FormatCSV FileFormat = "CSV" // comma separated
	FormatPSV FileFormat = "PSV" // pipe separated
	FormatTDF FileFormat = "TDF" // tab separated
)

// FileFormats lists the accepted formats.
var FileFormats = []FileFormat{FormatCSV, FormatPSV, FormatTDF}

// Delimiter returns the field separator of the format, or 0 when unknown.
func (f FileFormat) Delimiter() rune {
	switch f {
	case FormatCSV:
		return ','
	case FormatPSV:
		return '|'
	case FormatTDF:
		return '\t'
	}
	return 0
}

// FormatFromExtension maps a file name's extension to a format: .csv to CSV,
// .psv to PSV, .tsv, .tdf and .tab to TDF. ok is false for anything else.
func FormatFromExtension(name string) (FileFormat, bool) {
	i := strings.LastIndexByte(name, '.')
	if i < 0 {
		return "", false
	}
	switch strings.ToLower(name[i+1:]) {
	case "csv":
		return FormatCSV, true
	case "psv":
		return FormatPSV, true
	case "tsv", "tdf", "tab":
		return FormatTDF, true
	}
	return "", false
}

// Encoding is the character encoding of a flat file, spelled as the service
// spells it.
type Encoding string

// The encodings the service accepts.
const (
	EncodingUTF8   Encoding = "UTF-8"
	EncodingUTF16  Encoding = "UTF-16"
	EncodingLatin1 Encoding = "Windows Latin-1"
)

// Encodings lists the accepted encodings.
var Encodings = []Encoding{EncodingUTF8, EncodingUTF16, EncodingLatin1}

// FileMetadata is the JSON object sent in the "metadata" part of a file
// upload: {"input": {...}}.
type FileMetadata struct {
	Input FileInput `json:"input"`
}

// FileInput describes the uploaded file. PartName must equal the form name
// of the file part.
type FileInput struct {
	PartName     string     `json:"partName"`
	FileFormat   FileFormat `json:"fileFormat"`
	FileEncoding Encoding   `json:"fileEncoding"`
	FileName     string     `json:"fileName"`
}

// FileUpload is a flat file to send. Open is called once per attempt and its
// reader is streamed into the multipart body as it is sent; it is never read
// whole into memory. Size, when known (>= 0), lets the request carry an exact
// Content-Length; -1 means unknown (chunked).
type FileUpload struct {
	Input FileInput
	Open  func() (io.ReadCloser, error)
	Size  int64
}

// DataUpload is the body of start-with-data: Rows[0] is the header row of
// column names, the rest are data rows.
type DataUpload struct {
	Rows [][]string
}

// MaxDataBodyBytes is the service's limit on a start-with-data JSON body.
const MaxDataBodyBytes = 25 << 20
