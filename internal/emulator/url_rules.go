// URL rules shared by the resource groups: where the service sends a user or
// an event (webhook_url, callback_url) it takes https, or plain http only to
// a loopback host (local receivers during development).

package emulator

import (
	"net"
	"net/url"
	"strings"
)

// isLoopbackHost reports localhost, 127.0.0.0/8 and ::1.
func isLoopbackHost(h string) bool {
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// Why secureURL refuses a URL.
const (
	urlNotAbsolute = iota + 1 // not an absolute http(s) URL with a host
	urlPlainHTTP              // http to a host that is not loopback
)

// secureURL checks raw against the rule: an absolute https URL, or an http
// URL whose host is a loopback address or localhost. It answers 0 when raw
// passes, else why not.
func secureURL(raw string) int {
	u, err := url.Parse(raw)
	switch {
	case err != nil || u.Host == "" || u.Hostname() == "" || (u.Scheme != "https" && u.Scheme != "http"):
		return urlNotAbsolute
	case u.Scheme == "http" && !isLoopbackHost(u.Hostname()):
		return urlPlainHTTP
	}
	return 0
}

// checkCallbackURL refuses a callback URL (where the consent and hosted link
// pages send the user back) that is neither https nor http to a loopback
// host, with the service's 400 naming field; "" (none) passes.
func checkCallbackURL(field, raw string) *apiError {
	if raw == "" {
		return nil
	}
	switch secureURL(raw) {
	case urlNotAbsolute:
		return errValidation(field, "%s must be an absolute https URL (http only to localhost, 127.0.0.0/8 or [::1]), got %q", field, raw)
	case urlPlainHTTP:
		return errValidation(field, "%s must use https (plain http is accepted only for localhost, 127.0.0.0/8 or [::1]), got %q", field, raw)
	}
	return nil
}
