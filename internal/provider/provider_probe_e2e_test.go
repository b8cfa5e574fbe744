package provider

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"
)

// TestAccProvider_unreachableBaseURLFailsFast: through the terraform CLI, a
// base_url nothing listens on fails the plan within 10 s with an error naming
// the URL, instead of every data source and resource retrying for minutes.
func TestAccProvider_unreachableBaseURLFailsFast(t *testing.T) {
	t.Parallel()
	w := newE2EWorkspace(t)
	ln, err := (&net.ListenConfig{}).Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String()
	ln.Close()
	w.WriteFile("main.tf", `
data "service_toolkit_categories" "all" {}

data "service_toolkit" "github" {
  slug = "github"
}

resource "service_auth_config" "x" {
  toolkit = "github"
}
`)
	start := time.Now()
	res := w.Run([]string{EnvBaseURL + "=" + url}, "plan", "-no-color", "-input=false")
	elapsed := time.Since(start)
	if res.ExitCode == 0 {
		t.Fatalf("plan against %s succeeded:\n%s", url, res.Stdout)
	}
	if elapsed > 10*time.Second {
		t.Errorf("plan took %s to fail, want under 10 s", elapsed.Round(time.Millisecond))
	}
	out := res.Stdout + res.Stderr
	for _, want := range []string{"Cannot reach the service", url, "max_retries"} {
		if !strings.Contains(strings.Join(strings.Fields(out), " "), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	t.Logf("plan failed after %s", elapsed.Round(time.Millisecond))
}
