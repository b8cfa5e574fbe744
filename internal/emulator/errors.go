package emulator

import (
	"fmt"
	"net/http"
	"strconv"
)

// Error codes used in the "code" member of the error envelope. The ranges follow
// the real service: 3xx auth configs, 6xx and 1803 connected accounts, 7xx
// toolkits, 11xx trigger types, 12xx trigger instances, 13xx tools, 14xx
// tool-router sessions, 10xxx generic HTTP-level errors.
const (
	CodeBadRequest               = 10400
	CodeUnauthorized             = 10401
	CodeForbidden                = 10403
	CodeRouteNotFound            = 10404
	CodeInternal                 = 10500
	CodeNotImplemented           = 10501
	CodeInvalidCursor            = 10410
	CodeInvalidJSON              = 10411
	CodeValidation               = 10412
	CodeAuthConfigNotFound       = 300
	CodeAuthConfigCredentials    = 301
	CodeAuthConfigScheme         = 302
	CodeAuthConfigManagedAuth    = 303
	CodeAuthConfigDisabled       = 304
	CodeConnectedAccountNotFound = 1803
	CodeConnectedAccountCreds    = 602
	CodeConnectedAccountUnusable = 603
	CodeConnectedAccountAlias    = 604
	CodeConnectedAccountRevoke   = 605
	CodeToolkitNotFound          = 700
	CodeInvalidVersion           = 701
	CodeUnknownVersion           = 702
	CodeTriggerTypeNotFound      = 1100
	CodeTriggerNotFound          = 1200
	CodeTriggerAlreadyInState    = 1201
	CodeTriggerConfigInvalid     = 1202
	CodeTriggerAccountInvalid    = 1203
	CodeTriggerDeleted           = 1204
	CodeToolNotFound             = 1300
	CodeSessionNotFound          = 1400
	CodeSessionInvalidID         = 1401
	CodeSessionToolkitNotEnabled = 1402
)

// apiError is an error answered with the service's error envelope.
type apiError struct {
	Status       int
	Code         int
	Slug         string
	Message      string
	SuggestedFix string
	Errors       []string
	RetryAfter   string
}

func (e *apiError) Error() string { return fmt.Sprintf("%d %s: %s", e.Status, e.Slug, e.Message) }

func newErr(status, code int, slug, format string, args ...any) *apiError {
	return &apiError{Status: status, Code: code, Slug: slug, Message: fmt.Sprintf(format, args...)}
}

func (e *apiError) fix(s string) *apiError { e.SuggestedFix = s; return e }

func (e *apiError) with(errs ...string) *apiError { e.Errors = append(e.Errors, errs...); return e }

func errBadRequest(format string, args ...any) *apiError {
	return newErr(http.StatusBadRequest, CodeBadRequest, "BadRequest", format, args...)
}

func errValidation(field, format string, args ...any) *apiError {
	msg := fmt.Sprintf(format, args...)
	return newErr(http.StatusBadRequest, CodeValidation, "ValidationError", "%s", msg).with(field + ": " + msg)
}

func errNotFound(code int, slug, what, id string) *apiError {
	return newErr(http.StatusNotFound, code, slug, "%s %q not found", what, id).
		fix("Check the identifier and that it belongs to the project of the API key used.")
}

// The forms of an error answer (the error-form fault).
const (
	errorFormEnvelope   = "envelope"
	errorFormCodeString = "code-string"
	errorFormBareString = "bare-string"
	errorFormMessage    = "message"
	errorFormMinimal    = "minimal"
)

var errorForms = map[string]bool{errorFormEnvelope: true, errorFormCodeString: true, errorFormBareString: true,
	errorFormMessage: true, errorFormMinimal: true}

// render is the error body in form (errorForms; "" is the envelope). Every
// form but the envelope is one the service's answers were seen in, not one
// its document declares (service-documents.md, "Answers").
func (e *apiError) render(form, requestID string) any {
	switch form {
	case errorFormBareString:
		return map[string]any{"error": e.Message}
	case errorFormMessage:
		return map[string]any{"message": e.Message}
	case errorFormMinimal:
		return map[string]any{"error": map[string]any{"message": e.Message, "code": e.Code, "status": e.Status}}
	case errorFormCodeString:
		env := e.envelope(requestID)
		if body, ok := env["error"].(map[string]any); ok { // envelope's own shape
			body["code"] = strconv.Itoa(e.Code)
			body["id"] = requestID
		}
		return env
	}
	return e.envelope(requestID)
}

// envelope renders the error body.
func (e *apiError) envelope(requestID string) map[string]any {
	body := map[string]any{
		"message":       e.Message,
		"code":          e.Code,
		"slug":          e.Slug,
		"status":        e.Status,
		"request_id":    requestID,
		"suggested_fix": e.SuggestedFix,
	}
	if len(e.Errors) > 0 {
		body["errors"] = e.Errors
	}
	if e.SuggestedFix == "" {
		body["suggested_fix"] = defaultFix(e.Status)
	}
	return map[string]any{"error": body}
}

func defaultFix(status int) string {
	switch status {
	case http.StatusUnauthorized:
		return "Send a valid project API key in the x-api-key header."
	case http.StatusNotFound:
		return "Check the identifier and the route."
	case http.StatusConflict:
		return "The object is already in the requested state; no change is needed."
	case http.StatusTooManyRequests:
		return "Retry after the number of seconds in the Retry-After header."
	case http.StatusBadRequest:
		return "Fix the request parameters named in the message."
	default:
		if status >= 500 {
			return "Retry the request later."
		}
		return ""
	}
}

func internalErr(err error) *apiError {
	return newErr(http.StatusInternalServerError, CodeInternal, "InternalError", "internal error: %v", err)
}
