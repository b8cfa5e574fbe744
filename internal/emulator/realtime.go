// The SDK's realtime (Pusher) bootstrap routes.

package emulator

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
)

// registerRealtime serves the SDK's realtime (Pusher) bootstrap routes,
// which are outside the client's typed operations.
func (s *Server) registerRealtime() {
	s.api("GET", "/internal/sdk/realtime/credentials", func(c *call) (int, any, *apiError) {
		return 200, map[string]any{"pusher_key": realtimeKey, "project_id": c.project, "pusher_cluster": "emulator"}, nil
	})
	s.api("POST", "/internal/sdk/realtime/auth", s.realtimeAuth)
}

// Pusher app key and secret of the emulated realtime channel.
const (
	realtimeKey    = "emulator"
	realtimeSecret = "emulator-realtime-secret" //nolint:gosec // G101: the emulator's published realtime secret (docs/guides/emulator.md), no real one
)

// realtimeAuth answers the Pusher channel authorization (form-encoded
// socket_id and channel_name) for the caller's private-<project>_triggers
// channel: {"auth": "<key>:<hex HMAC-SHA256(secret, socket_id:channel_name)>"}.
func (s *Server) realtimeAuth(c *call) (int, any, *apiError) {
	if err := c.r.ParseForm(); err != nil {
		return 0, nil, errBadRequest("reading form: %v", err)
	}
	socketID, channel := c.r.PostForm.Get("socket_id"), c.r.PostForm.Get("channel_name")
	if socketID == "" || channel == "" {
		return 0, nil, errValidation("socket_id", "socket_id and channel_name are required (form-encoded)")
	}
	if want := "private-" + c.project + "_triggers"; channel != want {
		return 0, nil, newErr(http.StatusForbidden, CodeForbidden, "Forbidden", "channel %q is not this project's channel %q", channel, want)
	}
	mac := hmac.New(sha256.New, []byte(realtimeSecret))
	mac.Write([]byte(socketID + ":" + channel))
	return 200, map[string]any{"auth": realtimeKey + ":" + hex.EncodeToString(mac.Sum(nil))}, nil
}
