package emulator

import (
	"encoding/json"
	"slices"
	"strings"
	"time"
)

// publishTo is publish with the destination overridden by egressURL (a
// trigger instance's egress_url; "" = the subscription's URL): the
// subscription is still required and still decides the secret, the version
// and whether the event is enabled; only the destination changes.
func (s *Server) publishTo(project, eventType, egressURL string, build func(version, msgID string) map[string]any) (string, map[string]any, bool) {
	s.st.mu.RLock()
	defer s.st.mu.RUnlock()
	return s.publishLockedTo(project, eventType, egressURL, build)
}

// publishLocked is publish for callers that hold st.mu (read or write).
func (s *Server) publishLocked(project, eventType string, build func(version, msgID string) map[string]any) (string, map[string]any, bool) {
	return s.publishLockedTo(project, eventType, "", build)
}

func (s *Server) publishLockedTo(project, eventType, egressURL string, build func(version, msgID string) map[string]any) (string, map[string]any, bool) {
	var sub *WebhookSubscription
	if w := s.st.projectWebhookSub(project); w != nil && slices.Contains(w.EnabledEvents, eventType) {
		cp := *w
		if egressURL != "" {
			cp.WebhookURL = egressURL
		}
		sub = &cp
	}
	msgID := newID("msg")
	version := WebhookV3
	if sub != nil {
		version = sub.Version
	}
	payload := build(version, msgID)
	if sub == nil {
		return msgID, payload, false
	}
	body, err := json.Marshal(payload)
	if err != nil {
		s.log.Error("encode webhook", "err", err)
		return msgID, payload, false
	}
	return msgID, payload, s.hooks.enqueue(*sub, eventType, msgID, body)
}

func isoNow() string { return time.Now().UTC().Format("2006-01-02T15:04:05.000Z") }

// triggerMessage renders a composio.trigger.message body in the given
// version for trigger t (of account a) with event data.
func triggerMessage(version, msgID, logID string, t *TriggerInstance, a *ConnectedAccount, data map[string]any) map[string]any {
	switch version {
	case WebhookV1:
		return map[string]any{
			"trigger_name": t.TriggerName, "connection_id": t.ConnectedAccountID, "trigger_id": t.ID,
			"payload": data, "log_id": logID,
		}
	case WebhookV2:
		d := make(map[string]any, len(data)+5)
		for k, v := range data {
			d[k] = v
		}
		d["connection_id"], d["connection_nano_id"] = a.UUID, a.ID
		d["trigger_id"], d["trigger_nano_id"] = t.UUID, t.ID
		d["user_id"] = t.UserID
		return map[string]any{"type": strings.ToLower(t.TriggerName), "timestamp": isoNow(), "log_id": logID, "data": d}
	default:
		return map[string]any{
			"id": msgID, "timestamp": isoNow(), "type": EventTriggerMessage,
			"metadata": map[string]any{
				"log_id": logID, "trigger_slug": t.TriggerName, "trigger_id": t.ID,
				"connected_account_id": t.ConnectedAccountID, "auth_config_id": t.AuthConfigID, "user_id": t.UserID,
			},
			"data": data,
		}
	}
}

// accountExpired renders a composio.connected_account.expired body (V3 only).
func accountExpired(msgID string, a *ConnectedAccount) map[string]any {
	return map[string]any{
		"id": msgID, "timestamp": isoNow(), "type": EventAccountExpired,
		"metadata": map[string]any{"project_id": a.Project},
		"data": map[string]any{
			"id": a.ID, "user_id": a.UserID, "status": a.Status, "status_reason": a.StatusReason,
			"toolkit":     map[string]any{"slug": a.ToolkitSlug},
			"auth_config": map[string]any{"id": a.AuthConfigID, "auth_scheme": a.AuthScheme, "is_composio_managed": a.IsComposioManaged},
		},
	}
}

// triggerDisabled renders a composio.trigger.disabled body (V3 only).
func triggerDisabled(msgID string, t *TriggerInstance) map[string]any {
	return map[string]any{
		"id": msgID, "timestamp": isoNow(), "type": EventTriggerDisabled,
		"metadata": map[string]any{"project_id": t.Project},
		"data": map[string]any{
			"id": t.ID, "trigger_slug": t.TriggerName, "connected_account_id": t.ConnectedAccountID,
			"auth_config_id": t.AuthConfigID, "user_id": t.UserID,
		},
	}
}
