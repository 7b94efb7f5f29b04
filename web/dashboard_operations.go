package web

import (
	"net/http"
	"time"

	"chatsvc/app"
	"chatsvc/chat"
)

// operationsView is what /readyz knows, for an owner: whether the server
// takes work, and how far the replica is behind.
type operationsView struct {
	Ready      bool
	Reason     string
	Replicated bool // a replica is configured
	Replica    ReplicaStatus
	Now        time.Time
}

// operations shows an owner the server's readiness and its replication,
// as /readyz reports them, with where backups are explained.
func (d *dashboard) operations(w http.ResponseWriter, r *http.Request, s *app.DashboardSession) error {
	if s.Member.Role != chat.RoleOwner {
		return &app.Error{Kind: app.Forbidden, Code: app.CodeOwnerRequired, Message: "Only an owner can see the operations page."}
	}
	v := operationsView{Ready: true, Now: d.h.svc.Now()}
	if err := d.h.svc.Ping(r.Context()); err != nil {
		v.Ready, v.Reason = false, err.Error()
	} else if d.ready != nil {
		if err := d.ready(r.Context()); err != nil {
			v.Ready, v.Reason = false, err.Error()
		}
	}
	if d.replica != nil {
		v.Replicated, v.Replica = true, d.replica()
	}
	d.render(w, r, http.StatusOK, "operations", view{Title: "Operations", Nav: "operations", Session: s, Data: v})
	return nil
}
