package client

import (
	"net/url"
	"strconv"
	"strings"
)

// Query parameters are set only when they carry a value, so that the service
// applies its own defaults for everything the caller left out.

// setString sets key to v unless v is empty.
func setString(q url.Values, key, v string) {
	if v != "" {
		q.Set(key, v)
	}
}

// setList sets key to the comma-joined values (the encoding the official
// clients use for arrays) unless there are none.
func setList(q url.Values, key string, vals []string) {
	if len(vals) > 0 {
		q.Set(key, strings.Join(vals, ","))
	}
}

// setLimit sets the page size unless it is zero (the service's default).
func setLimit(q url.Values, limit int) {
	if limit > 0 {
		q.Set("limit", strconv.Itoa(limit))
	}
}
