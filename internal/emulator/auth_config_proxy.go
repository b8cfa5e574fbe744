package emulator

import (
	"encoding/json"
	"net/url"
)

// optionalMap is a JSON object field that may be absent (Set false), null
// (Set, M nil) or an object.
type optionalMap struct {
	Set bool
	M   map[string]any
}

func (o *optionalMap) UnmarshalJSON(b []byte) error {
	o.Set = true
	return json.Unmarshal(b, &o.M)
}

// checkProxyConfig checks an auth config's proxy_config: proxy_url (an
// http(s) URL) is required, proxy_auth_key optional.
func checkProxyConfig(p map[string]any, field string) *apiError {
	raw, _ := p["proxy_url"].(string)
	if raw == "" {
		return errValidation(field+".proxy_url", "proxy_url is required in proxy_config")
	}
	if u, err := url.Parse(raw); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return errValidation(field+".proxy_url", "proxy_url must be an http(s) URL, got %q", raw)
	}
	for k, v := range p {
		switch k {
		case "proxy_url":
		case "proxy_auth_key":
			if _, ok := v.(string); !ok && v != nil {
				return errValidation(field+".proxy_auth_key", "proxy_auth_key must be a string")
			}
		default:
			return errValidation(field+"."+k, "unknown field %s (proxy_config has proxy_url and proxy_auth_key)", k)
		}
	}
	return nil
}
