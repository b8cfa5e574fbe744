package emulator

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
)

func (s *Server) registerControl() {
	s.control("POST", "/connected_accounts/{id}/complete", s.controlAccount(StatusActive))
	s.control("POST", "/connected_accounts/{id}/fail", s.controlAccount(StatusFailed))
	s.control("POST", "/connected_accounts/{id}/expire", s.controlAccount(StatusExpired))
	s.control("POST", "/trigger_instances/{id}/fire", s.fireTrigger)
	s.control("GET", "/stats", s.stats)
	s.control("DELETE", "/stats", s.resetStats)
	s.control("PUT", "/faults", s.putFaults)
	s.control("GET", "/faults", func(c *call) (int, any, *apiError) {
		return 200, s.faults.get().info(), nil
	})
	s.control("PUT", "/webhook", s.putWebhook)
	s.control("POST", "/api_keys", s.createScopedKey)
}

// controlAccount moves an account to ACTIVE (complete), FAILED (fail) or
// EXPIRED (expire). Optional body {"reason": "..."} sets status_reason.
func (s *Server) controlAccount(target string) handlerFunc {
	return func(c *call) (int, any, *apiError) {
		var body struct {
			Reason string `json:"reason"`
		}
		if e := c.decode(&body); e != nil {
			return 0, nil, e
		}
		s.st.mu.Lock()
		defer s.st.mu.Unlock()
		old, e := c.account(c.r.PathValue("id"))
		if e != nil {
			return 0, nil, e
		}
		if target == StatusActive && old.AuthConfigDeleted {
			return 0, nil, unusable(old, "complete")
		}
		a := s.transition(old, target, body.Reason)
		if err := s.st.commit(put(bucketAccounts, a.ID, a)); err != nil {
			return 0, nil, internalErr(err)
		}
		if target == StatusExpired {
			s.publishLocked(a.Project, EventAccountExpired, func(_, msgID string) map[string]any { return accountExpired(msgID, a) })
		}
		return 200, s.renderAccount(a, s.origin(c.r), true), nil
	}
}

// transition returns a copy of old in the target status; callers hold st.mu.
func (s *Server) transition(old *ConnectedAccount, target, reason string) *ConnectedAccount {
	a := *old
	a.Val = cloneMap(old.Val)
	if a.Val == nil {
		a.Val = map[string]any{}
	}
	a.Status = target
	a.ConsentToken = ""
	switch target {
	case StatusActive:
		a.StatusReason = nil
		if isRedirectOAuth(a.AuthScheme) {
			a.Val["access_token"] = "emu_at_" + randString(24)
			a.Val["refresh_token"] = "emu_rt_" + randString(24)
			a.Val["token_type"] = "Bearer"
			a.Val["expires_in"] = 3600
		}
	case StatusFailed:
		if reason == "" {
			reason = "connection failed"
		}
		a.StatusReason = &reason
	case StatusExpired:
		if reason == "" {
			reason = "credentials expired"
		}
		a.StatusReason = &reason
	}
	a.UpdatedAt = s.st.stamp()
	return &a
}

func (s *Server) fireTrigger(c *call) (int, any, *apiError) {
	var data map[string]any
	if e := c.decode(&data); e != nil {
		return 0, nil, e
	}
	s.st.mu.RLock()
	t, e := c.trigger(c.r.PathValue("id"))
	if e != nil {
		s.st.mu.RUnlock()
		return 0, nil, e
	}
	a := s.st.accounts[t.ConnectedAccountID]
	s.st.mu.RUnlock()
	if t.DisabledAt != nil {
		return 0, nil, newErr(http.StatusConflict, CodeTriggerAlreadyInState, "TriggerInstance_Disabled",
			"trigger instance %s is disabled; enable it before firing", t.ID).
			fix("Enable the trigger instance (PATCH /api/v3.1/trigger_instances/manage/{id} with status \"enable\"), then fire it again.")
	}
	if a == nil || a.Status != StatusActive || a.IsDisabled || a.AuthConfigDeleted {
		return 0, nil, newErr(http.StatusConflict, CodeTriggerAccountInvalid, "TriggerInstance_AccountNotActive",
			"the connected account of trigger instance %s is not ACTIVE", t.ID).
			fix("Fire it once its connected account is ACTIVE and enabled: an INITIATED account is approved with " +
				"POST /_emulator/connected_accounts/{id}/complete; an EXPIRED, FAILED or REVOKED one must be connected again.")
	}
	logID := newID("log")
	msgID, payload, queued := s.publishTo(c.project, EventTriggerMessage, t.EgressURL, func(version, msgID string) map[string]any {
		return triggerMessage(version, msgID, logID, t, a, data)
	})
	return 200, map[string]any{"webhook_id": msgID, "log_id": logID, "queued": queued, "payload": payload}, nil
}

func (s *Server) stats(c *call) (int, any, *apiError) {
	s.statsMu.Lock()
	req := make(map[string]int64, len(s.requests))
	for k, v := range s.requests {
		req[k] = v
	}
	writes := s.writes
	revocations := s.revocationLog()
	throttled := make(map[string]int64, len(s.throttled))
	var throttledTotal int64
	for k, v := range s.throttled {
		throttled[k] = v
		throttledTotal += v
	}
	byProject := make(map[string]map[string]int64, len(s.byProject))
	for p, m := range s.byProject {
		byProject[p] = make(map[string]int64, len(m))
		for k, v := range m {
			byProject[p][k] = v
		}
	}
	s.statsMu.Unlock()
	return 200, map[string]any{
		"requests": req, "writes": writes, "projects": byProject, "revocations": revocations,
		"throttled": throttledTotal, "throttled_requests": throttled,
		"webhooks": map[string]any{
			"delivered": s.hooks.delivered.Load(), "failed": s.hooks.failed.Load(), "attempts": s.hooks.attempts.Load(),
			"deliveries": s.hooks.deliveryLog(),
		},
	}, nil
}

func (s *Server) resetStats(c *call) (int, any, *apiError) {
	s.statsMu.Lock()
	s.requests = map[string]int64{}
	s.byProject = map[string]map[string]int64{}
	s.writes = 0
	s.revocations = nil
	s.throttled = map[string]int64{}
	s.statsMu.Unlock()
	return 200, map[string]any{"requests": map[string]int64{}, "writes": 0, "throttled": 0}, nil
}

// putFaults replaces the fault spec. The body is the spec as plain text, or
// JSON {"spec": "..."} / a JSON string; empty clears all faults.
func (s *Server) putFaults(c *call) (int, any, *apiError) {
	raw, err := io.ReadAll(io.LimitReader(c.r.Body, 64<<10))
	if err != nil {
		return 0, nil, errBadRequest("reading body: %v", err)
	}
	spec := strings.TrimSpace(string(raw))
	if strings.HasPrefix(spec, "{") {
		var obj struct {
			Spec   *string `json:"spec"`
			Faults *string `json:"faults"`
		}
		if err := json.Unmarshal([]byte(spec), &obj); err != nil {
			return 0, nil, errBadRequest("fault body: %v", err)
		}
		spec = ""
		if obj.Spec != nil {
			spec = *obj.Spec
		} else if obj.Faults != nil {
			spec = *obj.Faults
		}
	} else if strings.HasPrefix(spec, `"`) {
		if err := json.Unmarshal([]byte(spec), &spec); err != nil {
			return 0, nil, errBadRequest("fault body: %v", err)
		}
	}
	fs, err := parseFaults(spec)
	if err != nil {
		return 0, nil, errValidation("faults", "%v", err)
	}
	fs = s.faults.set(fs)
	// A new spec starts every rate-limit window afresh, so that a limit set
	// now is measured from now.
	s.statsMu.Lock()
	s.rate = nil
	s.statsMu.Unlock()
	s.log.Info("faults set", fs.logAttrs()...)
	return 200, fs.info(), nil
}

func (s *Server) putWebhook(c *call) (int, any, *apiError) {
	var body struct {
		URL    string `json:"url"`
		Secret string `json:"secret"`
	}
	if e := c.decode(&body); e != nil {
		return 0, nil, e
	}
	if body.URL == "" {
		return 0, nil, errValidation("url", "url is required")
	}
	w, err := s.configureProjectWebhook(c.project, body.URL, body.Secret)
	if err != nil {
		return 0, nil, internalErr(err)
	}
	return 200, map[string]any{"url": w.WebhookURL, "subscription": renderWebhookSub(w)}, nil
}
