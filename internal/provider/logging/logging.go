// Package logging quiets the provider's loggers at process start unless the
// user asked for logs (a TF_LOG* variable is set).
package logging

import (
	"os"
	"strings"
)

// quietVariables are the terraform-plugin-go/framework logger level
// variables that QuietUnlessRequested sets to "off": the SDK root logger,
// its protocol and framework subsystems, and this provider's own logger
// (tflog, named after the provider type in provider.RegistryAddress).
var quietVariables = []string{
	"TF_LOG_SDK",
	"TF_LOG_SDK_PROTO",
	"TF_LOG_SDK_FRAMEWORK",
	"TF_LOG_PROVIDER_SERVICE",
}

// QuietUnlessRequested turns the provider's logging off when the user has
// asked for no logging at all, i.e. no TF_LOG* environment variable is set.
// Call it once at process start, before serving: terraform-plugin-log reads
// the level variables when it sets up the loggers of each RPC.
//
// Without it the framework produces TRACE logs for every attribute of every
// RPC (terraform-plugin-framework issue 1269), which Terraform then discards
// because its own TF_LOG is unset: a quarter of the provider's CPU time in a
// large plan. With any TF_LOG* variable set (TF_LOG=trace, TF_LOG_PROVIDER,
// TF_LOG_SDK_FRAMEWORK, TF_LOG_PROVIDER_SERVICE, ...) nothing is changed and
// everything is logged as before.
func QuietUnlessRequested() {
	for _, kv := range QuietEnv(os.Environ()) {
		k, v, _ := strings.Cut(kv, "=")
		_ = os.Setenv(k, v)
	}
}

// QuietEnv returns the KEY=VALUE settings that turn logging off given the
// process environment environ, or nil when a TF_LOG* variable is set.
func QuietEnv(environ []string) []string {
	for _, kv := range environ {
		k, v, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(strings.ToUpper(k), "TF_LOG") && v != "" {
			return nil
		}
	}
	out := make([]string, 0, len(quietVariables))
	for _, k := range quietVariables {
		out = append(out, k+"=off")
	}
	return out
}
