package provider

import (
	"os"
	"slices"
	"strings"
	"testing"
)

func TestQuietLogEnv(t *testing.T) {
	off := []string{"TF_LOG_SDK=off", "TF_LOG_SDK_PROTO=off", "TF_LOG_SDK_FRAMEWORK=off", "TF_LOG_PROVIDER_SERVICE=off"}
	for _, tc := range []struct {
		name    string
		environ []string
		want    []string
	}{
		{"nothing set", []string{"HOME=/root", "PATH=/bin", "TF_CLI_CONFIG_FILE=/x"}, off},
		{"TF_LOG set but empty", []string{"TF_LOG="}, off},
		{"TF_LOG=trace", []string{"TF_LOG=trace"}, nil},
		{"TF_LOG=debug lower case name", []string{"tf_log=debug"}, nil},
		{"TF_LOG_PROVIDER", []string{"TF_LOG_PROVIDER=info"}, nil},
		{"TF_LOG_SDK_FRAMEWORK", []string{"TF_LOG_SDK_FRAMEWORK=trace"}, nil},
		{"TF_LOG_PROVIDER_SERVICE", []string{"TF_LOG_PROVIDER_SERVICE=debug"}, nil},
		{"TF_LOG_PATH", []string{"TF_LOG_PATH=/tmp/tf.log"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := quietLogEnv(tc.environ); !slices.Equal(got, tc.want) {
				t.Errorf("quietLogEnv(%q) = %q, want %q", tc.environ, got, tc.want)
			}
		})
	}
}

// TestQuietLogsUnlessRequested_setsProcessEnv checks that the settings reach
// the process environment, where terraform-plugin-log reads them.
func TestQuietLogsUnlessRequested_setsProcessEnv(t *testing.T) {
	for _, k := range []string{"TF_LOG", "TF_LOG_PATH", "TF_LOG_PATH_MASK", "TF_ACC_LOG_PATH", "TF_LOG_CORE", "TF_LOG_PROVIDER"} {
		t.Setenv(k, "") // empty counts as unset
	}
	for _, k := range quietLogVariables {
		t.Setenv(k, "")
	}
	QuietLogsUnlessRequested()
	for _, k := range quietLogVariables {
		if got := os.Getenv(k); got != "off" {
			t.Errorf("%s = %q after QuietLogsUnlessRequested with no TF_LOG* set, want off", k, got)
		}
	}

	for _, k := range quietLogVariables {
		t.Setenv(k, "")
	}
	t.Setenv("TF_LOG", "trace")
	QuietLogsUnlessRequested()
	for _, k := range quietLogVariables {
		if got := os.Getenv(k); got != "" {
			t.Errorf("%s = %q after QuietLogsUnlessRequested with TF_LOG=trace, want it left unset", k, got)
		}
	}
}

// TestAccLogging_e2eTraceStillLogs runs the real CLI and the built provider
// (whose main calls QuietLogsUnlessRequested) with TF_LOG=trace and with
// TF_LOG_PROVIDER=debug: the framework's and the provider's own logs must
// still reach Terraform's log.
func TestAccLogging_e2eTraceStillLogs(t *testing.T) {
	w := newE2EWorkspace(t)
	w.WriteFile("main.tf", `data "service_toolkit" "gh" {
  slug = "github"
}
`)
	for _, tc := range []struct {
		env  string
		want []string
	}{
		{"TF_LOG=trace", []string{"@module=sdk.framework", "@module=sdk.proto", "service API request"}},
		{"TF_LOG_PROVIDER=debug", []string{"@module=sdk.framework", "service API request"}},
	} {
		logName := strings.ReplaceAll(tc.env, "=", "-") + ".log"
		w.RunEnvOK([]string{tc.env, "TF_LOG_PATH=" + w.Path(logName)}, "plan", "-input=false", "-no-color")
		log := string(w.ReadFile(logName))
		for _, s := range tc.want {
			if !strings.Contains(log, s) {
				t.Errorf("with %s the log has no %q: the provider's logging was turned off", tc.env, s)
			}
		}
	}
}
