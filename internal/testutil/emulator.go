package testutil

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Emulator is a running service emulator process.
type Emulator struct {
	// URL is the emulator's origin, e.g. http://127.0.0.1:41234.
	URL string
	// APIKey is the key of its default project.
	APIKey string
	// OrgAPIKey is the key of its default organization (which owns the
	// default project).
	OrgAPIKey string
	// Data is the bbolt data file the emulator keeps its state in.
	Data string

	bin     string
	record  string
	logFile *os.File
	cmd     *exec.Cmd
	done    chan struct{} // closed when the current process has exited
}

// EmulatorOptions configures StartEmulatorWith.
type EmulatorOptions struct {
	// Faults is passed as --faults (e.g. "status=429:0.1,reset=0.02").
	Faults string
	// Record is passed as --record: the file the emulator appends every API
	// request it receives to (contractcheck.StartEmulator checks them).
	Record string
}

// StartEmulator runs the emulator binary at bin on a free loopback port with
// its data under a temporary directory, and stops it when the test ends.
func StartEmulator(tb testing.TB, bin string) *Emulator {
	tb.Helper()
	return StartEmulatorWith(tb, bin, EmulatorOptions{})
}

// StartEmulatorWith is StartEmulator with options.
func StartEmulatorWith(tb testing.TB, bin string, opts EmulatorOptions) *Emulator {
	tb.Helper()
	logPath := filepath.Join(tb.TempDir(), "emulator.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		tb.Fatal(err)
	}
	e := &Emulator{APIKey: "emulator-key", OrgAPIKey: "emulator-org-key", Data: filepath.Join(tb.TempDir(), "emulator.db"), bin: bin, logFile: logFile, record: opts.Record}
	tb.Cleanup(func() {
		e.stop()
		_ = logFile.Close()
		if tb.Failed() {
			if b, err := os.ReadFile(logPath); err == nil && len(b) > 0 {
				tb.Logf("emulator log:\n%s", tail(string(b), 4000))
			}
		}
	})
	e.start(tb, "127.0.0.1:0", opts.Faults)
	return e
}

// Exited is closed when the current emulator process exits (for example
// after a crash-after-commit fault killed it).
func (e *Emulator) Exited() <-chan struct{} { return e.done }

// Restart starts the emulator again on the same address and data file, with
// the fault spec faults (usually none). The previous process must have exited.
func (e *Emulator) Restart(tb testing.TB, faults string) {
	tb.Helper()
	<-e.done
	e.start(tb, strings.TrimPrefix(e.URL, "http://"), faults)
}

func (e *Emulator) start(tb testing.TB, listen, faults string) {
	tb.Helper()
	args := []string{"--listen", listen, "--data", e.Data}
	if faults != "" {
		args = append(args, "--faults", faults)
	}
	if e.record != "" {
		args = append(args, "--record", e.record)
	}
	cmd := exec.Command(e.bin, args...) //nolint:noctx // stopped with SIGTERM in Cleanup
	// An os.Pipe rather than StdoutPipe: the reader may outlive cmd.Wait.
	stdout, stdoutW, err := os.Pipe()
	if err != nil {
		tb.Fatal(err)
	}
	cmd.Stdout = stdoutW
	cmd.Stderr = e.logFile
	err = cmd.Start()
	_ = stdoutW.Close()
	if err != nil {
		_ = stdout.Close()
		tb.Fatalf("start emulator: %v", err)
	}
	done := make(chan struct{})
	e.cmd, e.done = cmd, done

	lines := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		first := true
		for sc.Scan() {
			if first {
				lines <- sc.Text()
				first = false
			}
		}
		if first {
			close(lines)
		}
		_ = stdout.Close()
	}()
	go func() {
		_ = cmd.Wait()
		close(done)
	}()

	select {
	case line, ok := <-lines:
		if !ok || !strings.HasPrefix(line, "listening on ") {
			tb.Fatalf("emulator did not announce its address (first line %q)", line)
		}
		e.URL = strings.TrimSpace(strings.TrimPrefix(line, "listening on "))
	case <-time.After(30 * time.Second):
		tb.Fatal("emulator did not start within 30s")
	}
}

func (e *Emulator) stop() {
	if e.cmd == nil {
		return
	}
	select {
	case <-e.done:
		return
	default:
	}
	_ = e.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-e.done:
	case <-time.After(10 * time.Second):
		_ = e.cmd.Process.Kill()
		<-e.done
	}
}
