package emulator

import (
	"strings"
	"testing"
)

func TestColumnRules(t *testing.T) {
	cases := []struct {
		name, tmpl, file, status, msg string
		rows                          int
	}{
		{"complete", GLActualsTemplateID, "Account,Amount,Extra\n1,2,3\n", StatusCompleted, "", 1},
		{"reordered", GLActualsTemplateID, "Amount,Account\n1,2\n", StatusCompleted, "", 1},
		{"header only", GLActualsTemplateID, "Account,Amount\n", StatusCompleted, "", 0},
		{"missing one", GLActualsTemplateID, "Account,Value\n1,2\n", StatusError, `missing required column "Amount"`, 1},
		{"missing both", HeadcountTemplateID, "Name\nx\n", StatusError, `"Employee", "Department"`, 1},
		{"case matters", GLActualsTemplateID, "account,amount\n1,2\n", StatusError, `"Account"`, 1},
		{"empty file", GLActualsTemplateID, "", StatusError, "no header", 0},
		{"blank lines only", GLActualsTemplateID, "\n\r\n\n", StatusError, "no header", 0},
		{"ragged row", GLActualsTemplateID, "Account,Amount\n1,2\n3\n4,5\n", StatusError, "data row 2 (line 3) has 1 fields", 3},
		{"bare quote", GLActualsTemplateID, "Account,Amount\n1,2\n3,4\"x\n5,6\n", StatusError, "malformed file", 1},
		{"unterminated quote", GLActualsTemplateID, "Account,Amount\n1,\"2\n", StatusError, "malformed file", 0},
	}
	e := newEnv(t, Options{Instant: true})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := checkJob(t, e.startFile(c.tmpl, metaPart(metaGL), filePart(c.file)), c.status)
			j, _ := e.srv.Job(m["id"].(string))
			if !strings.Contains(j.Message, c.msg) || (c.msg == "") != (j.Message == "") {
				t.Errorf("message = %q, want %q", j.Message, c.msg)
			}
			if j.Upload.RowCount != c.rows {
				t.Errorf("rows = %d, want %d", j.Upload.RowCount, c.rows)
			}
		})
	}
	t.Run("data", func(t *testing.T) {
		m := checkJob(t, e.startData(SalesVolumesTemplateID, `{"input":{"data":[["Product"],["a"]]}}`), StatusError)
		if j, _ := e.srv.Job(m["id"].(string)); j.Message != `missing required column "Units"` {
			t.Errorf("message = %q", j.Message)
		}
		m = checkJob(t, e.startData(SalesVolumesTemplateID, `{"input":{"data":[["Product","Units"],["a",1],["b"]]}}`), StatusError)
		if j, _ := e.srv.Job(m["id"].(string)); !strings.Contains(j.Message, "data row 2 has 1 fields") {
			t.Errorf("message = %q", j.Message)
		}
		checkJob(t, e.startData(SalesVolumesTemplateID, `{"other":1,"input":{"x":[1],"data":[["Units","Product"]]}}`), StatusCompleted)
	})
}
