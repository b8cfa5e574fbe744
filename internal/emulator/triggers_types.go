// Resource group triggersTypes: GET /triggers_types, /triggers_types/list/enum,
// /triggers_types/{slug}.

package emulator

import (
	"maps"
	"slices"
)

func init() { registerGroup((*Server).registerTriggersTypes) }

func (s *Server) registerTriggersTypes() {
	s.handle("getApiV31TriggersTypes", s.listTriggerTypes)
	s.handle("getApiV31TriggersTypesListEnum", s.triggerTypeEnum)
	s.handle("getApiV31TriggersTypesBySlug", s.getTriggerType)
}

func renderTriggerType(t *triggerDef, version string) map[string]any {
	return map[string]any{
		"slug": t.Slug, "name": t.Name, "description": t.Description, "instructions": t.Instructions, "type": t.Type,
		"toolkit": map[string]any{"slug": t.toolkit.Slug, "name": t.toolkit.Name, "logo": t.toolkit.logo()},
		"config":  t.Config[version], "payload": t.Payload, "version": version,
		"requires_webhook_endpoint_setup": t.requiresWebhookEndpointSetup(),
	}
}

type versionedTrigger struct {
	t       *triggerDef
	version string
}

func (s *Server) listTriggerTypes(c *call) (int, any, *apiError) {
	slugs := listParam(c.r, "toolkit_slugs", "toolkit_slug")
	for _, sl := range slugs {
		if _, e := s.toolkitFor(c.project, sl); e != nil {
			return 0, nil, e
		}
	}
	tv, e := versionsFromQuery(c.r)
	if e != nil {
		return 0, nil, e
	}
	var items []versionedTrigger
	for _, tk := range s.cat.toolkits {
		if len(slugs) > 0 && !containsFold(slugs, tk.Slug) {
			continue
		}
		version, e := tk.resolveVersion("toolkit_versions", tv.forToolkit(tk.Slug))
		if e != nil {
			return 0, nil, e
		}
		for _, t := range tk.Triggers {
			items = append(items, versionedTrigger{t, version})
		}
	}
	return answerPage(c.r, items, maxLimit, func(v versionedTrigger) any { return renderTriggerType(v.t, v.version) })
}

func (s *Server) triggerTypeEnum(c *call) (int, any, *apiError) {
	return 200, slices.Sorted(maps.Keys(s.cat.triggers)), nil
}

func (s *Server) getTriggerType(c *call) (int, any, *apiError) {
	t, e := s.triggerType(c.r.PathValue("slug"))
	if e != nil {
		return 0, nil, e
	}
	return answerAtVersion(c, t.toolkit, "toolkit_versions", func(version string) any { return renderTriggerType(t, version) })
}
