// Package chat holds the objects of customer support that the service
// keeps and the API shows: conversations and their messages, contacts,
// tickets, knowledge sources, webhook endpoints, events and the workspace.
// Their JSON form is the API's; package storage fills them from rows and
// package app applies the rules to them.
package chat

// Mode separates live data from test data; every customer row carries one.
type Mode string

// The two modes.
const (
	Live Mode = "live"
	Test Mode = "test"
)
