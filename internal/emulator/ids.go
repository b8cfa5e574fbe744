package emulator

import (
	"crypto/rand"
	"fmt"
)

const idAlphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

// newID returns prefix + "_" + 12 random alphanumerics (nanoid style).
func newID(prefix string) string {
	return prefix + "_" + randString(12)
}

func randString(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = idAlphabet[int(b[i])%len(idAlphabet)]
	}
	return string(b)
}

func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = (b[6] & 0x0f) | 0x40
	b[8] = (b[8] & 0x3f) | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}

func newRequestID() string { return "req_" + randString(16) }

func itoa(n int) string { return fmt.Sprintf("%d", n) }
