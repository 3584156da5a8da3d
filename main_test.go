package main

import (
	"os"
	"testing"
)

var quietVars = []string{"TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK", "TF_LOG_PROVIDER_ETL"}

// unsetAll unsets the variables for the test; t.Setenv restores them after.
func unsetAll(t *testing.T, names ...string) {
	for _, n := range names {
		t.Setenv(n, "")
		os.Unsetenv(n)
	}
}

func TestQuietUnlessLogging(t *testing.T) {
	t.Run("no logs shown: the loggers are off", func(t *testing.T) {
		unsetAll(t, append(quietVars, "TF_LOG", "TF_LOG_PROVIDER")...)
		t.Setenv("TF_LOG_SDK_PROTO", "DEBUG") // set explicitly: kept
		quietUnlessLogging()
		for _, n := range quietVars {
			want := "off"
			if n == "TF_LOG_SDK_PROTO" {
				want = "DEBUG"
			}
			if got := os.Getenv(n); got != want {
				t.Errorf("%s=%q, want %q", n, got, want)
			}
		}
	})
	for _, shown := range []string{"TF_LOG", "TF_LOG_PROVIDER"} {
		t.Run(shown+" set: nothing changes", func(t *testing.T) {
			unsetAll(t, append(quietVars, "TF_LOG", "TF_LOG_PROVIDER")...)
			t.Setenv(shown, "TRACE")
			quietUnlessLogging()
			for _, n := range quietVars {
				if v, set := os.LookupEnv(n); set {
					t.Errorf("%s=%q set, want it unset", n, v)
				}
			}
		})
	}
}
