package webhooksig

import "testing"

func TestSignKnownVector(t *testing.T) {
	// echo -n 'msg_1.1700000000.{"a":1}' | openssl dgst -sha256 -hmac secret -binary | base64
	if got := Sign("secret", "msg_1", "1700000000", []byte(`{"a":1}`)); got != "v1,Q5nZ7DiOGwijBBqvBVAK6c0zDr2JLkXI7TaV4f+Q2vY=" {
		t.Fatalf("signature %s", got)
	}
}
