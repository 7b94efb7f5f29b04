package app

import (
	"errors"
	"fmt"
	"time"
)

// Kind classifies an Error; the web layer maps each kind to an HTTP status.
type Kind int

// The kinds of error the service reports to its callers.
const (
	Invalid      Kind = iota + 1 // the request is malformed or breaks a limit
	NotFound                     // the object addressed does not exist in this mode
	Conflict                     // the request clashes with the object's state
	Unauthorized                 // no valid credential
	Forbidden                    // the feature is not available
	RateLimited                  // too soon; RetryAfter says when to come back
	TooLarge                     // the request body is too large
)

// Error is a failure the caller can act on, with a stable code and, where it
// applies, the request parameter at fault. Other errors are internal.
type Error struct {
	Kind       Kind
	Code       string
	Message    string
	Param      string
	RetryAfter time.Duration
}

func (e *Error) Error() string {
	if e.Param != "" {
		return fmt.Sprintf("%s (%s): %s", e.Code, e.Param, e.Message)
	}
	return e.Code + ": " + e.Message
}

// Error codes shared by several operations.
const (
	CodeParameterMissing   = "parameter_missing"
	CodeParameterInvalid   = "parameter_invalid"
	CodeParameterUnknown   = "parameter_unknown"
	CodeBodyInvalid        = "body_invalid"
	CodeResourceMissing    = "resource_missing"
	CodeResourceConflict   = "resource_conflict"
	CodeConversationClosed = "conversation_closed"
	CodeAPIKeyMissing      = "api_key_missing"
	CodeAPIKeyInvalid      = "api_key_invalid"
	CodeFeatureUnavailable = "feature_not_available"
)

// Missing reports a required parameter that is absent, for callers that decode requests.
func Missing(param string) *Error { return missing(param) }

func missing(param string) *Error {
	return &Error{Kind: Invalid, Code: CodeParameterMissing, Param: param,
		Message: fmt.Sprintf("Missing required parameter: %s.", param)}
}

func invalid(param, format string, args ...any) *Error {
	return &Error{Kind: Invalid, Code: CodeParameterInvalid, Param: param, Message: fmt.Sprintf(format, args...)}
}

// Unknown reports a parameter the operation does not take.
func Unknown(param string) *Error {
	return &Error{Kind: Invalid, Code: CodeParameterUnknown, Param: param,
		Message: fmt.Sprintf("Received unknown parameter: %s.", param)}
}

// Invalidf reports a parameter whose value is wrong, for callers that decode requests.
func Invalidf(param, format string, args ...any) *Error { return invalid(param, format, args...) }

// noSuch reports an object addressed by the request path that does not exist.
func noSuch(what, id string) *Error {
	return &Error{Kind: NotFound, Code: CodeResourceMissing, Param: "id",
		Message: fmt.Sprintf("No such %s: '%s'.", what, id)}
}

// noSuchRef reports a body parameter that names an object that does not exist.
func noSuchRef(param, what, id string) *Error {
	return &Error{Kind: Invalid, Code: CodeResourceMissing, Param: param,
		Message: fmt.Sprintf("No such %s: '%s'.", what, id)}
}

func conflictErr(param, format string, args ...any) *Error {
	return &Error{Kind: Conflict, Code: CodeResourceConflict, Param: param, Message: fmt.Sprintf(format, args...)}
}

// named wraps an unexpected error with the operation that failed ("close
// conversation conv_…: …"), so the log line of a 500 says what failed. A
// domain error (*Error) passes as it is: its message is the answer, and
// web finds it with errors.As either way. errors.Is still finds
// storage.ErrNotFound and context errors through the wrapping.
func named(err error, op string) error {
	var ae *Error
	if err == nil || errors.As(err, &ae) {
		return err
	}
	return fmt.Errorf("%s: %w", op, err)
}
