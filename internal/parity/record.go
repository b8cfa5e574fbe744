package parity

import (
	"bytes"
	"encoding/json"
	"os"
)

// recordFormat is the version of the recording's format.
const recordFormat = 1

// DefaultRecording is the recording the suite checks the emulator against
// (TestEmulatorMatchesRecordedShapes), relative to the repository root.
const DefaultRecording = "internal/parity/testdata/service-shapes.json"

// recording is the file: the shapes of one side's answers and a note saying
// what they are. It holds no value: member names, JSON types, counts,
// statuses and header names only (enum values stay out, see Field.Enum).
type recording struct {
	Note string `json:"note"`
	*Shapes
}

const recordingNote = "Shapes of the answers to the provider's reads, without a value (member names, JSON types, counts, " +
	"statuses, header names), written by `make parity PARITY_RECORD=1` (CONTRIBUTING.md, \"Parity with the service\"). " +
	"TestEmulatorMatchesRecordedShapes checks the emulator against it on every `make test`."

// saveShapes writes s to path as a recording of side from.
func saveShapes(path, from string, s *Shapes) error {
	cp := *s
	cp.RecordedFrom = from
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(recording{Note: recordingNote, Shapes: &cp}); err != nil {
		return err
	}
	return os.WriteFile(path, b.Bytes(), 0o644) //nolint:gosec // G306: a recording of shapes without values, committed to the repository
}
