package provider

import (
	"strings"
	"testing"
)

// TestAccLogging_e2eTraceStillLogs runs the real CLI and the built provider
// (whose main calls logging.QuietUnlessRequested) with TF_LOG=trace and with
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
