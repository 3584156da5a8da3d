package emulator

import (
	"fmt"
	"testing"
)

func TestErrorBodyShape(t *testing.T) {
	e := newEnv(t, Options{})
	r := e.get("/templates/999")
	if string(r.body) != fmt.Sprintf("{\"code\":404,\"message\":%q}\n", `template "999" not found`) {
		t.Errorf("body = %s", r.body)
	}
}
