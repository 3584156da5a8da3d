package explore

import (
	"strings"
	"testing"
)

func TestFileBytes(t *testing.T) {
	if got := string(fileBytes(2, 1, 0)); got != "Account|Amount\n5000|7.5\n" {
		t.Errorf("PSV: %q", got)
	}
	if got := fileBytes(2, 2, 1); got[0] != 0xFF || got[1] != 0xFE || got[2] != 'A' || got[3] != 0 {
		t.Errorf("UTF-16: % x", got[:4])
	}
}

func TestMainTF(t *testing.T) {
	c := config{Blocks: []block{
		{Name: "r0", Count: 2, Kind: kindContent, Format: 2, Encoding: 2, Submit: true, Trigger: 3, KeepFailed: true},
		{Name: "r1", Count: 1, Kind: kindRows},
	}}
	got := mainTF(c)
	for _, want := range []string{
		`content  = "Account\tAmount\n4000\t100\n4010\t-20\n"`, `encoding = "Windows Latin-1"`, "count       = 2",
		"input = 3", "replace_triggered_by = [terraform_data.r0_trigger]", `["Account", "Amount"],`, "submit              = true",
		"keep_failed         = true",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("main.tf lacks %s:\n%s", want, got)
		}
	}
	if n := strings.Count(got, "keep_failed"); n != 1 { // r1's is off: unwritten, as the previous release has none
		t.Errorf("main.tf writes keep_failed %d times, want once:\n%s", n, got)
	}
}

func TestBackendAndCLIConfig(t *testing.T) {
	if backendHCL("") != "" {
		t.Error("a local state file has a backend.tf")
	}
	got := backendHCL("http://127.0.0.1:1/main")
	for _, want := range []string{`backend "http"`, `address        = "http://127.0.0.1:1/main"`, `lock_address   = "http://127.0.0.1:1/main"`} {
		if !strings.Contains(got, want) {
			t.Errorf("backend.tf lacks %s:\n%s", want, got)
		}
	}
	cfg := cliConfigText("/bin", "/mirror")
	for _, want := range []string{`"registry.opentofu.org/etl-provider/etl" = "/bin"`, `path = "/mirror"`} {
		if !strings.Contains(cfg, want) {
			t.Errorf("the CLI configuration lacks %s:\n%s", want, cfg)
		}
	}
}
