// Package webhooksig is the signature of the service's webhook deliveries
// (the webhook-signature header of Standard Webhooks, version v1): the
// emulator signs its deliveries with it, internal/client/webhooktest
// verifies them with it as a receiver does. It imports nothing of the
// repository, so both can.
package webhooksig

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
)

// MAC is the HMAC-SHA256, keyed with the secret's raw UTF-8 bytes, of
// "<id>.<timestamp>.<body>".
func MAC(secret, id, timestamp string, body []byte) []byte {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(id))
	m.Write([]byte{'.'})
	m.Write([]byte(timestamp))
	m.Write([]byte{'.'})
	m.Write(body)
	return m.Sum(nil)
}

// Sign is the webhook-signature header value of a delivery: "v1," and its
// MAC in standard base64 with padding.
func Sign(secret, id, timestamp string, body []byte) string {
	return "v1," + base64.StdEncoding.EncodeToString(MAC(secret, id, timestamp, body))
}
