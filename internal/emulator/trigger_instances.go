// Resource group triggerInstances (and triggerInstances.manage): list active,
// upsert, manage (enable/disable), delete.

package emulator

import (
	"encoding/json"
	"net/http"
	neturl "net/url"
	"slices"
	"sort"
)

func init() { registerGroup((*Server).registerTriggerInstances) }

func (s *Server) registerTriggerInstances() {
	s.handle("getApiV31TriggerInstancesActive", s.listTriggerInstances)
	s.handle("postApiV31TriggerInstancesBySlugUpsert", s.upsertTrigger)
	s.handle("patchApiV31TriggerInstancesManageByTriggerId", s.manageTrigger)
	s.handle("deleteApiV31TriggerInstancesManageByTriggerId", s.deleteTrigger)
}

// renderTriggerInstance is a list item as documented: no auth_config_id and
// no toolkit (they are the connected account's and the trigger type's).
func renderTriggerInstance(t *TriggerInstance) map[string]any {
	cfg := t.Config
	if cfg == nil {
		cfg = map[string]any{}
	}
	return map[string]any{
		"id": t.ID, "uuid": t.UUID, "connected_account_id": t.ConnectedAccountID,
		"connected_account_uuid": t.ConnectedAccountUUID, "user_id": t.UserID,
		"trigger_name": t.TriggerName, "trigger_config": cfg, "trigger_data": "", "state": map[string]any{},
		"updated_at": t.UpdatedAt, "disabled_at": t.DisabledAt, "version": t.Version,
		"connectedAccountId": t.ConnectedAccountID, "triggerName": t.TriggerName, "triggerConfig": cfg,
		"updatedAt": t.UpdatedAt, "disabledAt": t.DisabledAt,
		"deprecated": map[string]any{"createdAt": t.CreatedAt},
	}
}

func (s *Server) listTriggerInstances(c *call) (int, any, *apiError) {
	r := c.r
	acIDs := listParam(r, "auth_config_ids", "authConfigIds")
	caIDs := listParam(r, "connected_account_ids", "connectedAccountIds")
	ids := listParam(r, "trigger_ids", "triggerIds")
	names := listParam(r, "trigger_names", "triggerNames")
	users := listParam(r, "user_ids", "userIds")
	caUUIDs := listParam(r, "deprecated_connected_account_uuids", "deprecatedConnectedAccountUuids")
	acUUIDs := listParam(r, "deprecated_auth_config_uuids", "deprecatedAuthConfigUuids")
	showDisabled, e := boolParam(r, "show_disabled", "showDisabled")
	if e != nil {
		return 0, nil, e
	}
	if e := legacyPage(r, maxLimitSmall); e != nil {
		return 0, nil, e
	}
	s.st.mu.RLock()
	defer s.st.mu.RUnlock()
	var items []*TriggerInstance
	for _, t := range s.st.triggers {
		acUUID := ""
		if a := s.st.accounts[t.ConnectedAccountID]; a != nil {
			acUUID = a.AuthConfigUUID
		}
		if t.Project != c.project ||
			(len(caUUIDs) > 0 && !slices.Contains(caUUIDs, t.ConnectedAccountUUID)) ||
			(len(acUUIDs) > 0 && !slices.Contains(acUUIDs, acUUID)) ||
			(!showDisabled && t.DisabledAt != nil) ||
			(len(acIDs) > 0 && !slices.Contains(acIDs, t.AuthConfigID)) ||
			(len(caIDs) > 0 && !slices.Contains(caIDs, t.ConnectedAccountID)) ||
			(len(ids) > 0 && !slices.Contains(ids, t.ID)) ||
			(len(names) > 0 && !containsFold(names, t.TriggerName)) ||
			(len(users) > 0 && !slices.Contains(users, t.UserID)) {
			continue
		}
		items = append(items, t)
	}
	sort.Slice(items, func(i, j int) bool { return items[i].Seq > items[j].Seq })
	return answerPage(r, items, maxLimitSmall, renderTriggerInstanceAny)
}

func renderTriggerInstanceAny(t *TriggerInstance) any { return renderTriggerInstance(t) }

// upsertTrigger creates a trigger instance, or returns the existing one when
// the same account already has an instance of this type with an identical
// trigger_config (then only its version is refreshed). Both answer 200: the
// wire reference lists 201 only for auth configs, connected accounts, links and
// sessions, and the SDK reads trigger_id from either.
func (s *Server) upsertTrigger(c *call) (int, any, *apiError) {
	var body struct {
		ConnectedAccountID string         `json:"connected_account_id"`
		ConnectedAuthID    string         `json:"connectedAuthId"`
		UserID             string         `json:"user_id"`
		TriggerConfig      map[string]any `json:"trigger_config"`
		TriggerConfigCamel map[string]any `json:"triggerConfig"`
		ToolkitVersions    any            `json:"toolkit_versions"`
		Version            string         `json:"version"`
		// EgressURL: omitted leaves the instance's override as it is, null
		// removes it, a string sets it (S3 PostTriggerInstancesBySlugUpsertRequest).
		EgressURL json.RawMessage `json:"egress_url"`
	}
	if e := c.decode(&body); e != nil {
		return 0, nil, e
	}
	egress, setEgress, e := egressURLFromBody(body.EgressURL)
	if e != nil {
		return 0, nil, e
	}
	tt, e := s.triggerType(c.r.PathValue("slug"))
	if e != nil {
		return 0, nil, e
	}
	tv, e := versionsFromBody(body.ToolkitVersions)
	if e != nil {
		return 0, nil, e
	}
	if tv.global == "" && len(tv.perToolkit) == 0 && body.Version != "" {
		if e := validateVersion("version", body.Version); e != nil {
			return 0, nil, e
		}
		tv.global = body.Version
	}
	version, e := tt.toolkit.resolveVersion("toolkit_versions", tv.forToolkit(tt.toolkit.Slug))
	if e != nil {
		return 0, nil, e
	}
	cfg := body.TriggerConfig
	if cfg == nil {
		cfg = body.TriggerConfigCamel
	}
	if cfg == nil {
		cfg = map[string]any{}
	}
	if field, msg, ok := schemaError(tt.Config[version], cfg, "trigger_config"); !ok {
		return 0, nil, newErr(http.StatusBadRequest, CodeTriggerConfigInvalid, "TriggerInstance_InvalidConfig",
			"%s %s (trigger %s, toolkit version %s)", field, msg, tt.Slug, version).with(field + ": " + msg).
			fix("Read the trigger type's config schema with GET /triggers_types/" + tt.Slug + " for the same toolkit version.")
	}
	if body.ConnectedAccountID == "" {
		body.ConnectedAccountID = body.ConnectedAuthID
	}
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	a, e := s.triggerAccount(c, tt, body.ConnectedAccountID, body.UserID)
	if e != nil {
		return 0, nil, e
	}
	for _, t := range s.st.triggers {
		if t.Project == c.project && t.ConnectedAccountID == a.ID && t.TriggerName == tt.Slug && jsonEqual(t.Config, cfg) {
			nt := *t
			nt.Version = version
			if setEgress {
				nt.EgressURL = egress
			}
			nt.UpdatedAt = s.st.stamp()
			if err := s.st.commit(put(bucketTriggers, nt.ID, &nt)); err != nil {
				return 0, nil, internalErr(err)
			}
			return 200, upsertAnswer(nt.ID), nil
		}
	}
	now := s.st.stamp()
	t := &TriggerInstance{
		ID: newID("ti"), UUID: newUUID(), Project: c.project, Seq: s.st.nextSeq(), TriggerName: tt.Slug,
		ToolkitSlug: tt.toolkit.Slug, ConnectedAccountID: a.ID, ConnectedAccountUUID: a.UUID, AuthConfigID: a.AuthConfigID,
		UserID: a.UserID, Config: cfg, Version: version, CreatedAt: now, UpdatedAt: now, EgressURL: egress,
	}
	if err := s.st.commit(put(bucketTriggers, t.ID, t)); err != nil {
		return 0, nil, internalErr(err)
	}
	s.log.Info("trigger created", "id", t.ID, "trigger", tt.Slug, "account", a.ID, "version", version)
	return http.StatusOK, upsertAnswer(t.ID), nil
}

// upsertAnswer is the upsert's answer as documented: {trigger_id} alone (the
// service's document of 2026-11, PostTriggerInstancesBySlugUpsertResponse).
func upsertAnswer(id string) map[string]any { return map[string]any{"trigger_id": id} }

// egressURLFromBody reads an upsert's egress_url: absent (set false: leave
// the instance's as it is), null (set, "": remove it) or an absolute https
// URL with a host (the document: "this HTTPS URL"; unlike webhook_url, no
// plain http to loopback hosts). Anything else is a 400 naming egress_url.
func egressURLFromBody(raw json.RawMessage) (url string, set bool, e *apiError) {
	if len(raw) == 0 {
		return "", false, nil
	}
	if string(raw) == "null" {
		return "", true, nil
	}
	if err := json.Unmarshal(raw, &url); err != nil {
		return "", false, errValidation("egress_url", "egress_url must be a string or null, got %s", raw)
	}
	if u, err := neturl.Parse(url); err != nil || u.Scheme != "https" || u.Hostname() == "" {
		return "", false, errValidation("egress_url", "egress_url must be an absolute https URL, got %q", url)
	}
	return url, true, nil
}

// triggerAccount resolves the connected account of an upsert; callers hold st.mu.
func (s *Server) triggerAccount(c *call, tt *triggerDef, accountID, userID string) (*ConnectedAccount, *apiError) {
	var a *ConnectedAccount
	switch {
	case accountID != "":
		var e *apiError
		if a, e = c.account(accountID); e != nil {
			return nil, e
		}
	case userID != "":
		for _, x := range s.st.accounts {
			if x.Project == c.project && x.UserID == userID && x.ToolkitSlug == tt.toolkit.Slug && x.Status == StatusActive &&
				!x.IsDisabled && (a == nil || x.Seq > a.Seq) {
				a = x
			}
		}
		if a == nil {
			return nil, newErr(http.StatusBadRequest, CodeTriggerAccountInvalid, "TriggerInstance_NoConnectedAccount",
				"user %s has no ACTIVE connected account on toolkit %s", userID, tt.toolkit.Slug).with("user_id: no active connected account")
		}
	default:
		return nil, errValidation("connected_account_id", "connected_account_id or user_id is required")
	}
	if a.ToolkitSlug != tt.toolkit.Slug {
		return nil, newErr(http.StatusBadRequest, CodeTriggerAccountInvalid, "TriggerInstance_AccountToolkitMismatch",
			"connected account %s is on toolkit %s but trigger %s belongs to %s", a.ID, a.ToolkitSlug, tt.Slug, tt.toolkit.Slug).
			with("connected_account_id: toolkit mismatch")
	}
	if a.Status != StatusActive || a.IsDisabled || a.AuthConfigDeleted {
		return nil, newErr(http.StatusBadRequest, CodeTriggerAccountInvalid, "TriggerInstance_AccountNotActive",
			"connected account %s is not usable for triggers (status %s, disabled %t)", a.ID, a.Status, a.IsDisabled).
			with("connected_account_id: account not ACTIVE")
	}
	return a, nil
}

func (s *Server) manageTrigger(c *call) (int, any, *apiError) {
	var body struct {
		Status string `json:"status"`
	}
	if e := c.decode(&body); e != nil {
		return 0, nil, e
	}
	if body.Status != "enable" && body.Status != "disable" {
		return 0, nil, errValidation("status", "status must be \"enable\" or \"disable\", got %q", body.Status)
	}
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	old, e := c.trigger(c.r.PathValue("triggerId"))
	if e != nil {
		return 0, nil, e
	}
	disabled := old.DisabledAt != nil
	if (body.Status == "disable") == disabled {
		state := "enabled"
		if disabled {
			state = "disabled"
		}
		return 0, nil, newErr(http.StatusConflict, CodeTriggerAlreadyInState, "TriggerInstance_AlreadyInState",
			"trigger instance %s is already %s", old.ID, state)
	}
	t := *old
	t.UpdatedAt = s.st.stamp()
	if body.Status == "disable" {
		at := t.UpdatedAt
		t.DisabledAt = &at
	} else {
		t.DisabledAt = nil
	}
	if err := s.st.commit(put(bucketTriggers, t.ID, &t)); err != nil {
		return 0, nil, internalErr(err)
	}
	if t.DisabledAt != nil {
		s.publishLocked(t.Project, EventTriggerDisabled, func(_, msgID string) map[string]any { return triggerDisabled(msgID, &t) })
	}
	return 200, map[string]any{"status": "success"}, nil
}

func (s *Server) deleteTrigger(c *call) (int, any, *apiError) {
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	id := c.r.PathValue("triggerId")
	if _, live := s.st.triggers[id]; !live && c.triggerDeleted(id) {
		return 0, nil, newErr(http.StatusConflict, CodeTriggerDeleted, "TriggerInstance_AlreadyDeleted", "trigger instance %s is already deleted", id)
	}
	t, e := c.trigger(id)
	if e != nil {
		return 0, nil, e
	}
	if err := s.st.commit(s.deleteTriggerChanges(t)...); err != nil {
		return 0, nil, internalErr(err)
	}
	return 200, map[string]any{"trigger_id": t.ID}, nil
}
