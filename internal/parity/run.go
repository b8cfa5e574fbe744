package parity

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"time"
)

// Options configures one run of the check (Main reads them from flags and
// the environment).
type Options struct {
	// BaseURL, APIKey and OrgAPIKey are the service's (SERVICE_BASE_URL,
	// SERVICE_API_KEY, SERVICE_ORG_API_KEY); OrgAPIKey "" skips the
	// organization's routes.
	BaseURL, APIKey, OrgAPIKey string
	// Record, when set, is the file the service's shapes are written to.
	Record string
	// FromEmulator records the in-process emulator's own shapes to Record
	// without contacting any service.
	FromEmulator bool
	// FromDigest, when set, is a digest of the documented shapes
	// (DefaultDigest): the recording it describes is written to Record,
	// and no service is contacted (`make shapes`).
	FromDigest string
	// Digest, when set with a service, is the file the service's shapes are
	// written to as a digest (`make parity PARITY_RECORD=1`); Record then
	// receives the recording generated from it.
	Digest string
	// Verbose lists the members that are the same.
	Verbose bool
	// Transport carries the reads to the service (nil: the default); the
	// read-only transport wraps it.
	Transport http.RoundTripper
}

// Exit statuses of Main.
const (
	ExitSame      = 0 // no difference in what the provider reads
	ExitDifferent = 1 // a difference in what the provider reads
	ExitError     = 2 // bad usage, a refused key, an unreachable service
)

// Main runs the check as the command service-parity does: flags from args,
// the service from getenv, the report on stdout, one line on stderr for an
// error that stops it. It returns the exit status.
func Main(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("service-parity", flag.ContinueOnError)
	fs.SetOutput(stderr)
	opts := Options{BaseURL: getenv("SERVICE_BASE_URL"), APIKey: getenv("SERVICE_API_KEY"), OrgAPIKey: getenv("SERVICE_ORG_API_KEY")}
	fs.StringVar(&opts.Record, "record", "", "write the service's shapes (no values) to `FILE`, e.g. "+DefaultRecording)
	fs.BoolVar(&opts.FromEmulator, "from-emulator", false, "with -record: record the in-process emulator's own shapes; no service is contacted")
	fs.StringVar(&opts.FromDigest, "from-digest", "", "with -record: write the recording the digest `FILE` describes, e.g. "+DefaultDigest+"; no service is contacted")
	fs.StringVar(&opts.Digest, "digest", "", "write the service's shapes (no values) as a digest to `FILE`, e.g. "+DefaultDigest+", and the recording generated from it to -record")
	fs.BoolVar(&opts.Verbose, "v", false, "list the members that are the same")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: SERVICE_BASE_URL=... SERVICE_API_KEY=... [SERVICE_ORG_API_KEY=...] service-parity [-record FILE] [-v]")
		fmt.Fprintln(stderr, "       service-parity -from-emulator -record FILE")
		fmt.Fprintln(stderr, "       service-parity -from-digest DIGEST -record FILE")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return ExitError
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return ExitError
	}
	code, err := Run(ctx, opts, stdout)
	if err != nil {
		fmt.Fprintln(stderr, "service-parity:", err)
	}
	return code
}

// Run runs the check with opts, writing the report to stdout.
func Run(ctx context.Context, opts Options, stdout io.Writer) (int, error) {
	plan, err := resolvePlan(readPlan)
	if err != nil {
		return ExitError, err
	}
	if opts.FromEmulator {
		return recordEmulator(ctx, opts, plan, stdout)
	}
	if opts.FromDigest != "" {
		if opts.Record == "" {
			return ExitError, errors.New("-from-digest needs -record FILE")
		}
		if err := GenerateRecording(opts.FromDigest, opts.Record); err != nil {
			return ExitError, err
		}
		fmt.Fprintf(stdout, "wrote the recording %s generated from the digest %s\n", opts.Record, opts.FromDigest)
		return ExitSame, nil
	}
	if opts.BaseURL == "" || opts.APIKey == "" {
		return ExitError, errors.New("SERVICE_BASE_URL and SERVICE_API_KEY must name the service and a project's key " +
			"(SERVICE_ORG_API_KEY adds the organization's routes); see CONTRIBUTING.md, \"Parity with the service\"")
	}
	svc, err := newSide("service", opts.BaseURL, opts.APIKey, opts.OrgAPIKey, opts.Transport)
	if err != nil {
		return ExitError, fmt.Errorf("SERVICE_BASE_URL: %w", err)
	}
	printBanner(stdout, svc.base, opts.OrgAPIKey != "")

	service, err := collect(ctx, svc, plan, nil)
	if err != nil {
		return ExitError, err
	}
	fmt.Fprintf(stdout, "read the service: %d GET requests\n", svc.sent)

	emu, err := startEmulator(ctx)
	if err != nil {
		return ExitError, fmt.Errorf("starting the emulator: %w", err)
	}
	defer emu.Close()
	orgKey := ""
	if opts.OrgAPIKey != "" {
		orgKey = emu.OrgKey
	}
	emulated, err := readEmulator(ctx, emu, orgKey, plan, false)
	if err != nil {
		return ExitError, err
	}

	c := compare(plan, "service", service, "emulator", emulated)
	printReport(stdout, c, opts.Verbose)
	switch {
	case opts.Digest != "":
		// the reads the service answered no object to keep the documents' entries
		prev, err := loadDigest(opts.Digest)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return ExitError, fmt.Errorf("reading the digest to refresh: %w", err)
		}
		if err := saveDigest(opts.Digest, digestFromShapes(service, "service", plan, time.Now(), prev)); err != nil {
			return ExitError, fmt.Errorf("writing the service's shapes as a digest: %w", err)
		}
		fmt.Fprintf(stdout, "\nwrote the service's shapes (no values) as the digest %s\n", opts.Digest)
		if opts.Record != "" {
			if err := GenerateRecording(opts.Digest, opts.Record); err != nil {
				return ExitError, err
			}
			fmt.Fprintf(stdout, "wrote the recording %s generated from it\n", opts.Record)
		}
	case opts.Record != "":
		if err := saveShapes(opts.Record, "service", service); err != nil {
			return ExitError, fmt.Errorf("recording the service's shapes: %w", err)
		}
		fmt.Fprintf(stdout, "\nrecorded the service's shapes (no values) to %s\n", opts.Record)
	}
	printSummary(stdout, c)
	if c.failures() > 0 {
		return ExitDifferent, nil
	}
	return ExitSame, nil
}

func printBanner(w io.Writer, base string, org bool) {
	orgRoutes := "SERVICE_ORG_API_KEY is not set: the organization's project routes are skipped"
	if org {
		orgRoutes = "SERVICE_ORG_API_KEY for the organization's project routes"
	}
	fmt.Fprintf(w, "service-parity: read-only. It sends only GET requests to %s (lists, single objects by the ids those lists "+
		"return, a missing object, a bad key, page sizes) with SERVICE_API_KEY (%s), and the same reads to an emulator it "+
		"starts in this process. It never writes: its transport refuses anything but GET. Values are never compared or "+
		"printed, keys never.\n", base, orgRoutes)
}

// readEmulator seeds emu and reads the plan on it. withUnlisted also reads
// the seeded objects no list names (the tool-router sessions) by their ids:
// where the emulator is held to a recording, which has them, and not where
// it is compared with a service, whose side cannot read any.
func readEmulator(ctx context.Context, emu *localEmulator, orgKey string, plan []planned, withUnlisted bool) (*Shapes, error) {
	unlisted, err := seedEmulator(ctx, emu.URL, emu.APIKey, orgKey)
	if err != nil {
		return nil, err
	}
	if !withUnlisted {
		unlisted = nil
	}
	side, err := newSide("emulator", emu.URL, emu.APIKey, orgKey, nil)
	if err != nil {
		return nil, err
	}
	return collect(ctx, side, plan, unlisted)
}

// recordEmulator records the in-process emulator's own shapes.
func recordEmulator(ctx context.Context, opts Options, plan []planned, stdout io.Writer) (int, error) {
	if opts.Record == "" {
		return ExitError, errors.New("-from-emulator needs -record FILE")
	}
	emu, err := startEmulator(ctx)
	if err != nil {
		return ExitError, fmt.Errorf("starting the emulator: %w", err)
	}
	defer emu.Close()
	shapes, err := readEmulator(ctx, emu, emu.OrgKey, plan, true)
	if err != nil {
		return ExitError, err
	}
	if err := saveShapes(opts.Record, "emulator", shapes); err != nil {
		return ExitError, err
	}
	fmt.Fprintf(stdout, "recorded the in-process emulator's shapes (no values) to %s\n", opts.Record)
	return ExitSame, nil
}
