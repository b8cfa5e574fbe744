package emulator

import (
	"fmt"
	"net/http/httptest"
	"os"
	"testing"
)

// helperDataEnv, when set, turns this test binary into an emulator serving
// the data file it names (the child process of TestKill9Durability): TestMain
// serves instead of running tests, so the helper is no test of its own and
// never shows up as a skip.
const helperDataEnv = "EMULATOR_HELPER_DATA"

func TestMain(m *testing.M) {
	if path := os.Getenv(helperDataEnv); path != "" {
		serveHelperEmulator(path)
	}
	os.Exit(m.Run())
}

// serveHelperEmulator prints "listening on <url>" once the emulator serves
// path's data, then serves until the process is killed.
func serveHelperEmulator(path string) {
	srv, err := New(Options{DataPath: path})
	if err != nil {
		fmt.Println("error", err)
		os.Exit(2)
	}
	ts := httptest.NewServer(srv.Handler())
	fmt.Println("listening on " + ts.URL)
	select {}
}
