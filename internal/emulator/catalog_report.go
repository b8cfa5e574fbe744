// What the emulator says at start about its catalog: which files it read,
// and which toolkits its data's objects name that the catalog lacks (an
// emulator restarted on its --data without its --catalog).

package emulator

import (
	"cmp"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
)

// logCatalog logs the catalog's files and counts, then warns once per
// toolkit that objects of the data file name and the catalog does not hold.
func (s *Server) logCatalog() {
	c := s.cat
	builtin := len(c.toolkits)
	attrs := []any{"toolkits", builtin, "trigger_types", len(c.triggers), "tools", len(c.tools)}
	if s.opts.CatalogDir == "" {
		attrs = append(attrs, "catalog", "built-in only (no --catalog)")
	} else {
		attrs = append(attrs, "catalog_dir", s.opts.CatalogDir, "catalog_files", strings.Join(c.files, ","))
	}
	s.log.Info("catalog loaded", attrs...)

	for _, m := range s.missingToolkits() {
		s.log.Warn(fmt.Sprintf("the data holds objects of toolkit %q, which the catalog lacks: requests naming it answer "+
			"404 (Toolkit_NotFound); start the emulator with the --catalog it had when they were created", m.slug),
			slog.String("toolkit", m.slug), slog.Int("auth_configs", m.authConfigs),
			slog.Int("connected_accounts", m.accounts), slog.Int("trigger_instances", m.triggers),
			slog.String("catalog", cmp.Or(s.opts.CatalogDir, "built-in only")))
	}
}

type missingToolkit struct {
	slug                            string
	authConfigs, accounts, triggers int
}

// missingToolkits counts, per toolkit slug the catalog lacks, the stored
// objects naming it. A project's custom toolkit (service_custom_toolkit's
// objects) is not a catalog toolkit and is never missing.
func (s *Server) missingToolkits() []missingToolkit {
	s.st.mu.RLock()
	defer s.st.mu.RUnlock()
	found := map[string]*missingToolkit{}
	note := func(project, slug string) *missingToolkit {
		slug = strings.ToLower(slug)
		if slug == "" || s.cat.bySlug[slug] != nil || s.st.customToolkits[customToolkitKey(project, slug)] != nil {
			return nil
		}
		m := found[slug]
		if m == nil {
			m = &missingToolkit{slug: slug}
			found[slug] = m
		}
		return m
	}
	for _, a := range s.st.authConfigs {
		if m := note(a.Project, a.ToolkitSlug); m != nil {
			m.authConfigs++
		}
	}
	for _, a := range s.st.accounts {
		if m := note(a.Project, a.ToolkitSlug); m != nil {
			m.accounts++
		}
	}
	for _, t := range s.st.triggers {
		if m := note(t.Project, t.ToolkitSlug); m != nil {
			m.triggers++
		}
	}
	out := make([]missingToolkit, 0, len(found))
	for _, slug := range slices.Sorted(maps.Keys(found)) {
		out = append(out, *found[slug])
	}
	return out
}
