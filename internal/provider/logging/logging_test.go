package logging

import (
	"os"
	"slices"
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
			if got := QuietEnv(tc.environ); !slices.Equal(got, tc.want) {
				t.Errorf("QuietEnv(%q) = %q, want %q", tc.environ, got, tc.want)
			}
		})
	}
}

// TestQuietUnlessRequested_setsProcessEnv checks that the settings reach
// the process environment, where terraform-plugin-log reads them.
func TestQuietUnlessRequested_setsProcessEnv(t *testing.T) {
	for _, k := range []string{"TF_LOG", "TF_LOG_PATH", "TF_LOG_PATH_MASK", "TF_ACC_LOG_PATH", "TF_LOG_CORE", "TF_LOG_PROVIDER"} {
		t.Setenv(k, "") // empty counts as unset
	}
	for _, k := range quietVariables {
		t.Setenv(k, "")
	}
	QuietUnlessRequested()
	for _, k := range quietVariables {
		if got := os.Getenv(k); got != "off" {
			t.Errorf("%s = %q after QuietUnlessRequested with no TF_LOG* set, want off", k, got)
		}
	}

	for _, k := range quietVariables {
		t.Setenv(k, "")
	}
	t.Setenv("TF_LOG", "trace")
	QuietUnlessRequested()
	for _, k := range quietVariables {
		if got := os.Getenv(k); got != "" {
			t.Errorf("%s = %q after QuietUnlessRequested with TF_LOG=trace, want it left unset", k, got)
		}
	}
}
