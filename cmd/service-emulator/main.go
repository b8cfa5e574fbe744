// Command service-emulator runs the local emulator of the integration service.
//
//	service-emulator [--listen 127.0.0.1:8080] [--data PATH] [--api-key K | --api-key PROJECT=K]...
//	                 [--org-api-key ORG=KEY]... [--faults SPEC] [--webhook-url U --webhook-secret S] [--catalog DIR]
//	                 [--record FILE]
//	service-emulator --operations
//
// --catalog DIR loads toolkit files (JSON, the format of the built-in catalog
// in internal/emulator/catalogdata/; see examples/emulator-catalog) that add
// toolkits with their tools and trigger types or replace built-in toolkits of
// the same slug; a bad file stops the start with an error naming the file and
// the field.
//
// --org-api-key ORG=KEY configures an organization API key (x-org-api-key,
// repeatable); without one there is one organization "default" with key
// emulator-org-key. The projects of --api-key belong to the first
// organization (sorted by id); an organization key creates, lists, reads,
// deletes projects and regenerates their keys (/org/owner/project/...).
//
// --record FILE (default $SERVICE_EMULATOR_RECORD) appends every API request
// received to FILE, one JSON line each ({"method", "path", "query", "body"}):
// the tests check what a client sent against the contract with it. The file
// holds the bodies as sent, credentials included.
//
// --operations prints the operation table (one line per operation: "emulated"
// or "501", method, path below /api/v3.1, operation ID, client method) and exits.
//
// The first line on stdout is exactly "listening on http://HOST:PORT". Logs
// are structured (log/slog, text) on stderr at the level of SERVICE_LOG_LEVEL
// (debug, info, warn, error; default info). SIGTERM and SIGINT shut down cleanly.
//
// What the emulator serves, its control routes, stats, faults and catalog
// format: the reference guide docs/guides/emulator.md.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/integration-service/terraform-provider-service/internal/emulator"
)

type keyFlags []string

func (k *keyFlags) String() string     { return strings.Join(*k, ",") }
func (k *keyFlags) Set(v string) error { *k = append(*k, v); return nil }

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "service-emulator:", err)
		os.Exit(1)
	}
}

func logLevel() slog.Level {
	var lvl slog.Level
	if err := lvl.UnmarshalText([]byte(os.Getenv("SERVICE_LOG_LEVEL"))); err != nil {
		return slog.LevelInfo
	}
	return lvl
}

// parseKeys turns --api-key values into key -> project. "PROJECT=KEY" names
// the project; a bare KEY gets its own project named after the key.
func parseKeys(vals []string) (map[string]string, error) {
	keys := map[string]string{}
	for _, v := range vals {
		project, key, ok := strings.Cut(v, "=")
		if !ok {
			project, key = v, v
		}
		if key == "" || project == "" {
			return nil, fmt.Errorf("invalid --api-key %q (want KEY or PROJECT=KEY)", v)
		}
		keys[key] = project
	}
	return keys, nil
}

// parseOrgKeys turns --org-api-key values ("ORG=KEY") into key -> organization.
func parseOrgKeys(vals []string) (map[string]string, error) {
	keys := map[string]string{}
	for _, v := range vals {
		org, key, ok := strings.Cut(v, "=")
		if !ok || key == "" || org == "" {
			return nil, fmt.Errorf("invalid --org-api-key %q (want ORG=KEY)", v)
		}
		keys[key] = org
	}
	return keys, nil
}

func run(args []string) error {
	fs := flag.NewFlagSet("service-emulator", flag.ContinueOnError)
	listen := fs.String("listen", "127.0.0.1:8080", "address to listen on (port 0 picks a free port)")
	data := fs.String("data", "", "bbolt data file (in-memory when empty)")
	faults := fs.String("faults", "", "fault spec, e.g. status=429:0.1,status=503:0.1,latency=20ms,reset=0.02 or crash-after-commit=POST:/auth_configs; ratelimit=120/min limits each organization to 120 requests per fixed one-minute window (429 with Retry-After), ratelimit-headers=off sends no rate-limit header; seed=N replays the random choices of a run (the seed used is logged)")
	webhookURL := fs.String("webhook-url", "", "shortcut: give every project a V3 webhook subscription (composio.trigger.message) at this URL")
	webhookSecret := fs.String("webhook-secret", "", "signing secret of the --webhook-url subscriptions (generated when empty)")
	catalogDir := fs.String("catalog", "", "directory of catalog files adding or replacing toolkits, tools and trigger types")
	operations := fs.Bool("operations", false, "print the operation table (which operations are emulated) and exit")
	record := fs.String("record", os.Getenv(envRecord), "append every API request received (method, path, query, body: credentials included) to this file, one JSON line each, for tests that check what a client sends (default $"+envRecord+")")
	var apiKeys keyFlags
	fs.Var(&apiKeys, "api-key", "API key (repeatable; KEY or PROJECT=KEY); default one project with key emulator-key")
	var orgAPIKeys keyFlags
	fs.Var(&orgAPIKeys, "org-api-key", "organization API key for x-org-api-key (repeatable; ORG=KEY); default one organization \"default\" with key "+emulator.DefaultOrgAPIKey+"; the --api-key projects belong to the first organization (sorted by id)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *operations {
		return printOperations(os.Stdout)
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: logLevel()}))
	keys, err := parseKeys(apiKeys)
	if err != nil {
		return err
	}
	orgKeys, err := parseOrgKeys(orgAPIKeys)
	if err != nil {
		return err
	}
	srv, err := emulator.New(emulator.Options{
		DataPath: *data, APIKeys: keys, OrgAPIKeys: orgKeys, Faults: *faults, CatalogDir: *catalogDir,
		WebhookURL: *webhookURL, WebhookSecret: *webhookSecret, Logger: log,
		// The crash-after-commit fault: die like a killed service, after the
		// committed (fsync'd) write and before its answer.
		Crash: func() {
			if p, err := os.FindProcess(os.Getpid()); err == nil {
				_ = p.Kill() // SIGKILL
			}
			select {}
		},
	})
	if err != nil {
		return err
	}
	ln, err := (&net.ListenConfig{}).Listen(context.Background(), "tcp", *listen)
	if err != nil {
		_ = srv.Close()
		return err
	}
	origin := "http://" + ln.Addr().String()
	srv.SetBaseURL(origin)
	handler := srv.Handler()
	if *record != "" {
		rr, err := newRequestRecorder(handler, *record)
		if err != nil {
			_ = ln.Close()
			_ = srv.Close()
			return fmt.Errorf("--record: %w", err)
		}
		defer func() { _ = rr.Close() }()
		handler = rr
	}
	httpSrv := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintln(os.Stdout, "listening on "+origin)
	if len(keys) == 0 {
		log.Info("no --api-key given: one project \"default\" with key " + emulator.DefaultAPIKey)
	}
	log.Info("emulator started", "addr", origin, "data", *data, "api_keys", max(len(keys), 1))

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	errCh := make(chan error, 1)
	go func() { errCh <- httpSrv.Serve(ln) }()
	select {
	case err := <-errCh:
		_ = srv.Close()
		if errors.Is(err, http.ErrServerClosed) {
			return nil
		}
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down")
	shutCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err = httpSrv.Shutdown(shutCtx)
	if cerr := srv.Close(); err == nil {
		err = cerr
	}
	log.Info("stopped")
	return err
}

// printOperations writes the operation table, one operation per line.
func printOperations(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, op := range emulator.Operations() {
		state := "501"
		if op.Emulated {
			state = "emulated"
		}
		method := op.ClientMethod
		if !op.InTypes {
			method += " (documented, not in the client's types)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", state, op.Method, op.Path, op.ID, method)
	}
	return tw.Flush()
}
