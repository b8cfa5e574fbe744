package client

import "reflect"

// The Go types the client decodes list envelopes and error bodies into, for
// code outside the package that needs to know which fields of an answer the
// client reads (the parity check, internal/parity, walks their json tags).
// The types themselves stay unexported; these return their reflect.Type.

// CursorPageType is the type of one page of a cursor-paginated list of T
// (items or data, next_cursor and the page counters).
func CursorPageType[T any]() reflect.Type { return reflect.TypeFor[page[T]]() }

// NumberedPageType is the type of one page of a page_no-paginated list of T
// (the MCP server lists).
func NumberedPageType[T any]() reflect.Type { return reflect.TypeFor[numberedPage[T]]() }

// ErrorEnvelopeType is the type a failed answer's body is decoded into first.
func ErrorEnvelopeType() reflect.Type { return reflect.TypeFor[errorEnvelope]() }

// ErrorBodyType is the type of the envelope's error member when it is an
// object (message, code, request_id, suggested_fix, ...).
func ErrorBodyType() reflect.Type { return reflect.TypeFor[errorBody]() }
