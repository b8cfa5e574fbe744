// Package validators holds the checks the provider's schemas and ValidateConfig
// share: URLs, ids, slugs, names, headers, JSON objects, credential fields, write-only versions.
package validators

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/integration-service/terraform-provider-service/internal/client"
)

// StringCheck is a validator.String that skips null and unknown values and
// reports a value Check rejects as an attribute error: Summary, and the
// detail "Attribute <path>: <Check's error>.". Desc is its description.
type StringCheck struct {
	Desc    string
	Summary string
	Check   func(value string) error
}

var _ validator.String = StringCheck{}

func (v StringCheck) Description(_ context.Context) string { return v.Desc }

func (v StringCheck) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v StringCheck) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if err := v.Check(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, v.Summary, fmt.Sprintf("Attribute %s: %s.", req.Path, err))
	}
}

// ToolkitVersion accepts `YYYYMMDD_NN` (with a real calendar date)
// or `latest`. Reusable on any string attribute (use
// mapvalidator.ValueStringsAre(ToolkitVersion()) on maps); the
// diagnostic names the attribute path.
func ToolkitVersion() validator.String {
	return StringCheck{
		Desc:    "value must be a toolkit version YYYYMMDD_NN (a real date) or \"latest\"",
		Summary: "Invalid toolkit version",
		Check:   client.ValidateVersion,
	}
}

// authConfigIDRe matches auth config ids (nanoids prefixed with ac_).
var authConfigIDRe = regexp.MustCompile(`^ac_[A-Za-z0-9_-]+$`)

// AuthConfigID checks that a value looks like an auth config id.
func AuthConfigID() validator.String {
	return stringvalidator.RegexMatches(authConfigIDRe, "must be an auth config id such as ac_AbC123")
}

var toolkitSlugRe = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]*$`)

// ToolkitSlug checks that a value (or a map key) looks like a toolkit slug.
func ToolkitSlug() validator.String {
	return StringCheck{
		Desc:    "value must be a toolkit slug (letters, digits, underscore, hyphen)",
		Summary: "Invalid toolkit slug",
		Check:   checkToolkitSlug,
	}
}

func checkToolkitSlug(v string) error {
	if !toolkitSlugRe.MatchString(v) {
		return fmt.Errorf("%q is not a toolkit slug (letters, digits, underscore and hyphen only)", v)
	}
	return nil
}

// BaseURL checks the shape of base_url at validate time.
func BaseURL() validator.String {
	return StringCheck{
		Desc:    "value must be an absolute http(s) URL: origin plus optional path prefix, no query or fragment",
		Summary: "Invalid base URL",
		Check: func(v string) error {
			if _, err := NormalizeBaseURL(v); err != nil {
				return fmt.Errorf("%q is not usable: %w", v, err)
			}
			return nil
		},
	}
}

// NormalizeBaseURL validates a base URL and returns it without a trailing slash.
// Accepted: http or https, a host, an optional path prefix; no user info,
// query or fragment, and not the API path itself (the client appends /api/v3.1).
func NormalizeBaseURL(raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return "", errors.New("it is empty")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("it cannot be parsed as a URL (%s)", strings.TrimPrefix(err.Error(), "parse "))
	}
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return "", errors.New("it must be an absolute URL starting with https:// (or http://)")
	case u.Host == "" || u.Hostname() == "":
		return "", errors.New("it has no host")
	case u.User != nil:
		return "", errors.New("it must not contain user information; set the API key with api_key")
	case u.RawQuery != "" || u.ForceQuery:
		return "", errors.New("it must not contain a query string")
	case u.Fragment != "" || strings.Contains(raw, "#"):
		return "", errors.New("it must not contain a fragment")
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return "", fmt.Errorf("port %q is not valid", p)
		}
	}
	trimmed := strings.TrimRight(u.Path, "/")
	for _, suffix := range []string{"/api/v3", "/api/v3.1"} {
		if strings.HasSuffix(trimmed, suffix) {
			return "", fmt.Errorf("it must not end with %s: give the origin (and any proxy path prefix) only, the provider appends /api/v3.1", suffix)
		}
	}
	u.Path = trimmed
	u.RawPath = ""
	return u.String(), nil
}

// isLoopbackHost reports localhost, *.localhost, 127.0.0.0/8 and ::1.
func isLoopbackHost(host string) bool {
	h := strings.ToLower(strings.TrimSuffix(host, "."))
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(h, "[]"))
	return ip != nil && ip.IsLoopback()
}

// CheckTransportSecurity refuses plain http to non-loopback hosts.
func CheckTransportSecurity(normalizedURL string) error {
	u, err := url.Parse(normalizedURL)
	if err != nil {
		return err
	}
	if u.Scheme == "http" && !isLoopbackHost(u.Hostname()) {
		return fmt.Errorf("uses plain http to the non-loopback host %q, which would send the API key unencrypted; "+
			"use https, or set allow_insecure_http = true to accept the risk", u.Hostname())
	}
	return nil
}

// InsecureBaseURL refuses an http base_url in the
// configuration unless allow_insecure_http is true (validate time).
type InsecureBaseURL struct{}

var _ provider.ConfigValidator = InsecureBaseURL{}

func (InsecureBaseURL) Description(_ context.Context) string {
	return "a plain http base_url to a non-loopback host requires allow_insecure_http = true"
}

func (v InsecureBaseURL) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (InsecureBaseURL) ValidateProvider(ctx context.Context, req provider.ValidateConfigRequest, resp *provider.ValidateConfigResponse) {
	var baseURL types.String
	var allow types.Bool
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("base_url"), &baseURL)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("allow_insecure_http"), &allow)...)
	if resp.Diagnostics.HasError() || baseURL.IsNull() || baseURL.IsUnknown() || allow.IsUnknown() || allow.ValueBool() {
		return
	}
	normalized, err := NormalizeBaseURL(baseURL.ValueString())
	if err != nil {
		return // reported by the attribute validator
	}
	if err := CheckTransportSecurity(normalized); err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("base_url"), "Insecure base URL",
			fmt.Sprintf("Attribute base_url %q %s.", baseURL.ValueString(), err))
	}
}

var headerTokenRe = regexp.MustCompile("^[!#$%&'*+\\-.^_`|~0-9A-Za-z]+$")

// IsHeaderName reports whether name is a valid HTTP header name (a token:
// letters, digits and !#$%&'*+.^_`|~-).
func IsHeaderName(name string) bool { return headerTokenRe.MatchString(name) }

// HeaderValue refuses control characters in header values.
func HeaderValue() validator.String {
	return StringCheck{
		Desc:    "value must not contain control characters such as CR or LF",
		Summary: "Invalid default header",
		Check: func(v string) error {
			if strings.ContainsFunc(v, func(r rune) bool { return r < 0x20 && r != '\t' || r == 0x7f }) {
				return errors.New("header values must not contain control characters such as CR or LF")
			}
			return nil
		},
	}
}

// Duration accepts positive Go duration strings ("30s", "2m").
func Duration() validator.String {
	return StringCheck{
		Desc:    "value must be a positive duration such as \"30s\" or \"2m\"",
		Summary: "Invalid duration",
		Check: func(v string) error {
			if _, err := ParsePositiveDuration(v); err != nil {
				return fmt.Errorf("%q %w", v, err)
			}
			return nil
		},
	}
}

// ParsePositiveDuration parses a Go duration string greater than zero.
func ParsePositiveDuration(s string) (time.Duration, error) {
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil {
		return 0, errors.New("is not a duration; use a number with a unit such as \"30s\", \"1m30s\" or \"2m\"")
	}
	if d <= 0 {
		return 0, errors.New("must be greater than zero")
	}
	return d, nil
}

// DisplayName is the rule for the names people give objects
// (auth config, custom toolkit, MCP server): not blank, no surrounding white
// space, no control characters. The service treats a blank name as none (an
// auth config then gets a generated name, a different value than planned) or
// refuses it, and may trim one with surrounding spaces.
func DisplayName() validator.String {
	return StringCheck{
		Desc:    "a name: not blank, without surrounding white space or control characters",
		Summary: "Invalid name",
		Check: func(v string) error {
			switch {
			case strings.TrimSpace(v) == "":
				return fmt.Errorf("%q is blank; give a name, or leave the attribute out where it is optional", v)
			case strings.TrimSpace(v) != v:
				return fmt.Errorf("%q has white space around it; remove it", v)
			case strings.ContainsFunc(v, unicode.IsControl):
				return fmt.Errorf("%q contains a control character", v)
			}
			return nil
		},
	}
}

// CredentialFields holds the validators of every map of credential fields:
// field names are not empty and no value is blank. The service takes a blank
// value for a missing field, so a blank required field would otherwise fail
// only at apply, and a blank optional one means nothing. The diagnostic names
// the field, never a value.
func CredentialFields() []validator.Map {
	return []validator.Map{
		mapvalidator.KeysAre(stringvalidator.LengthAtLeast(1)),
		mapvalidator.ValueStringsAre(StringCheck{
			Desc:    "a value that is not blank",
			Summary: "Blank credential value",
			Check: func(v string) error {
				if strings.TrimSpace(v) == "" {
					return errors.New("the value is blank; give one, or leave the field out")
				}
				return nil
			},
		}),
	}
}

// HTTPURL accepts absolute http(s) URLs with a host and no user
// name or password (a password in a URL would be stored and shown in plans
// in clear). A URL that carries one is never repeated in the message.
func HTTPURL() validator.String {
	return StringCheck{
		Desc:    "value must be an absolute URL starting with https:// or http://, without a user name or password",
		Summary: "Invalid URL",
		Check: func(raw string) error {
			u, err := checkURL(raw)
			if err != nil {
				return err
			}
			if u.Scheme != "https" && u.Scheme != "http" {
				return fmt.Errorf("%q must start with https:// or http:// (not %s://)", raw, u.Scheme)
			}
			return nil
		},
	}
}

// CallbackURL is the service's rule for a callback URL (where the
// user is sent back after approving a connection): an absolute https URL,
// or http only to localhost, 127.0.0.0/8 or [::1] (a local application
// during development). Any other scheme (javascript:, data:, ...) or plain
// http elsewhere the service refuses with a 400; this refuses it at
// validate, with the rest of HTTPURL's checks.
func CallbackURL() validator.String {
	return StringCheck{
		Desc:    "value must be an absolute https URL (http only to localhost, 127.0.0.0/8 or [::1]), without a user name or password",
		Summary: "Invalid callback URL",
		Check: func(raw string) error {
			if u, err := url.Parse(raw); err == nil && u.Scheme != "" && !strings.EqualFold(u.Scheme, "https") && !strings.EqualFold(u.Scheme, "http") {
				return fmt.Errorf("must start with https:// (or http:// to a loopback host), not %s: the service sends the "+
					"user's browser there after the approval and refuses any other scheme", u.Scheme)
			}
			u, err := checkURL(raw)
			if err != nil {
				return err
			}
			h := strings.ToLower(u.Hostname())
			if strings.EqualFold(u.Scheme, "http") && (!isLoopbackHost(h) || strings.HasSuffix(strings.TrimSuffix(h, "."), ".localhost")) {
				return fmt.Errorf("uses plain http to the host %q; the service takes https callback URLs (plain http "+
					"only to localhost, 127.0.0.1 or [::1])", u.Hostname())
			}
			return nil
		},
	}
}

// WebhookURL accepts absolute https URLs and http URLs to loopback hosts.
func WebhookURL() validator.String {
	return StringCheck{
		Desc:    "value must be an https URL (http only to a loopback host)",
		Summary: "Invalid webhook URL",
		Check: func(raw string) error {
			u, err := checkURL(raw)
			if err != nil {
				return err
			}
			if u.Scheme != "https" && u.Scheme != "http" {
				return fmt.Errorf("must be an absolute https URL such as https://example.com/webhooks, got %q", raw)
			}
			if u.Fragment != "" || strings.HasSuffix(raw, "#") {
				return fmt.Errorf("%q has a fragment (#...), which is never sent with a delivery; remove it", raw)
			}
			if u.Scheme == "http" && !isLoopbackHost(u.Hostname()) {
				return fmt.Errorf("uses plain http to the non-loopback host %q; the service delivers to https URLs "+
					"(plain http is accepted only for localhost, 127.0.0.1 or [::1])", u.Hostname())
			}
			return nil
		},
	}
}

// HTTPSURL accepts absolute https URLs only (no plain http, not even to a
// loopback host), without user information or a fragment: the rule the
// service documents for URLs it calls itself (a trigger instance's
// egress_url, a project's oauth_callback_verifier_url).
func HTTPSURL() validator.String {
	return StringCheck{
		Desc:    "value must be an absolute https URL, without a user name, password or fragment",
		Summary: "Invalid URL",
		Check: func(raw string) error {
			u, err := checkURL(raw)
			if err != nil {
				return err
			}
			if !strings.EqualFold(u.Scheme, "https") {
				return fmt.Errorf("must be an absolute https URL such as https://example.com/hook (the service calls "+
					"it only over https), got %s://", u.Scheme)
			}
			if u.Fragment != "" || strings.HasSuffix(raw, "#") {
				return fmt.Errorf("%q has a fragment (#...), which is never sent; remove it", raw)
			}
			return nil
		},
	}
}

// checkURL parses an absolute URL with a host and no user information or
// white space; its errors name the URL only when it carries no user
// information.
func checkURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	switch {
	case err != nil && strings.Contains(raw, "@"):
		return nil, errors.New("the value is not a URL; use a full address such as https://example.com/path")
	case err != nil:
		return nil, fmt.Errorf("%q is not a URL; use a full address such as https://example.com/path", raw)
	case u.User != nil:
		return nil, fmt.Errorf("%s must not contain a user name or password: it would be stored and shown in clear", u.Redacted())
	case u.Scheme == "" || u.Host == "" || u.Hostname() == "":
		return nil, fmt.Errorf("%q is not an absolute URL; use a full address such as https://example.com/path", raw)
	case strings.ContainsAny(raw, " \t\r\n"):
		return nil, fmt.Errorf("%q contains white space; remove it or encode it (%%20)", raw)
	}
	return u, nil
}

// FreeText is the rule for free text sent to the service (a reason,
// a description): not blank, and no control characters but new lines and
// tabs.
func FreeText() validator.String {
	return StringCheck{
		Desc:    "text: not blank, without control characters other than new lines and tabs",
		Summary: "Invalid text",
		Check: func(v string) error {
			if strings.TrimSpace(v) == "" {
				return fmt.Errorf("%q is blank; give a text, or leave the attribute out", v)
			}
			if strings.ContainsFunc(v, func(r rune) bool { return unicode.IsControl(r) && r != '\n' && r != '\t' && r != '\r' }) {
				return fmt.Errorf("%q contains a control character", v)
			}
			return nil
		},
	}
}

// HeaderFields checks a map of HTTP headers: names are header tokens and
// values hold no line breaks or other control characters but tabs (a line
// break would inject another header). Values are never repeated in the
// message: they may hold secrets.
func HeaderFields() validator.Map { return headerFieldsValidator{} }

type headerFieldsValidator struct{}

func (headerFieldsValidator) Description(_ context.Context) string {
	return "HTTP header names (letters, digits and !#$%&'*+.^_`|~-) with values without line breaks"
}

func (v headerFieldsValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (headerFieldsValidator) ValidateMap(_ context.Context, req validator.MapRequest, resp *validator.MapResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	for name, e := range req.ConfigValue.Elements() {
		if !headerTokenRe.MatchString(name) {
			resp.Diagnostics.AddAttributeError(req.Path.AtMapKey(name), "Invalid header name",
				fmt.Sprintf("Attribute %s: %q is not an HTTP header name (letters, digits and !#$%%&'*+.^_`|~-, no spaces or colons).", req.Path, name))
			continue
		}
		s, ok := e.(types.String)
		if !ok || s.IsNull() || s.IsUnknown() {
			continue
		}
		if strings.ContainsFunc(s.ValueString(), func(r rune) bool { return unicode.IsControl(r) && r != '\t' }) {
			resp.Diagnostics.AddAttributeError(req.Path.AtMapKey(name), "Invalid header value",
				fmt.Sprintf("Attribute %s[%q]: the value contains a line break or another control character.", req.Path, name))
		}
	}
}

// CanonicalToolkitSlug is ToolkitSlug plus the service's spelling:
// toolkit slugs in lower case, custom toolkit slugs (CUSTOM_...) in upper
// case. The service accepts either case but reports its own, so another
// spelling would plan a replacement after an import (or fail a set that
// must hold what was planned).
func CanonicalToolkitSlug() validator.String {
	return StringCheck{
		Desc:    "a toolkit slug as the service spells it: lower case, or CUSTOM_... in upper case",
		Summary: "Invalid toolkit slug",
		Check: func(v string) error {
			if err := checkToolkitSlug(v); err != nil {
				return err
			}
			if strings.HasPrefix(strings.ToUpper(v), client.CustomToolkitPrefix) {
				if v != strings.ToUpper(v) {
					return fmt.Errorf("%q: custom toolkit slugs are upper case, write %q (as the service reports it)", v, strings.ToUpper(v))
				}
				return nil
			}
			if v != strings.ToLower(v) {
				return fmt.Errorf("%q: toolkit slugs are lower case, write %q (as the service reports it)", v, strings.ToLower(v))
			}
			return nil
		},
	}
}
