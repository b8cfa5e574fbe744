package emulator

import "testing"

func TestTriggerTypesVersions(t *testing.T) {
	e := newEnv(t, Options{})
	latest := e.must(200, "GET", v+"/triggers_types/GITHUB_COMMIT_EVENT", nil)
	if latest.str("version") != VersionLatest || props(latest)["branch"] == nil || latest.str("toolkit", "slug") != "github" ||
		latest.get("payload") == nil || latest.str("type") != "webhook" {
		t.Fatalf("latest: %s", latest.raw)
	}
	for _, q := range []string{"?toolkit_versions=20250901_00", "?toolkit_versions[github]=20250901_00", "?toolkit_versions%5Bgithub%5D=20250901_00"} {
		old := e.must(200, "GET", v+"/triggers_types/GITHUB_COMMIT_EVENT"+q, nil)
		if old.str("version") != VersionOld || props(old)["branch"] != nil || props(old)["owner"] == nil {
			t.Fatalf("%s: %s", q, old.raw)
		}
	}
	if r := e.must(200, "GET", v+"/triggers_types/GITHUB_COMMIT_EVENT?toolkit_versions[slack]=20250901_00", nil); r.str("version") != VersionLatest {
		t.Fatalf("other toolkit's pin applied: %s", r.raw)
	}
	e.mustErr(400, "invalid toolkit version", "GET", v+"/triggers_types/GITHUB_COMMIT_EVENT?toolkit_versions=v2", nil)
	e.mustErr(400, "invalid toolkit version", "GET", v+"/triggers_types/GITHUB_COMMIT_EVENT?toolkit_versions=20251345_00", nil)
	e.mustErr(400, "has no version", "GET", v+"/triggers_types/GITHUB_COMMIT_EVENT?toolkit_versions=20240101_00", nil)
	e.mustErr(404, "not found", "GET", v+"/triggers_types/NOPE_TRIGGER", nil)

	list := e.must(200, "GET", v+"/triggers_types?toolkit_slugs=github,stripe&toolkit_versions[github]=20250901_00", nil)
	if n := len(list.items()); n != 5 {
		t.Fatalf("list github+stripe: %d", n)
	}
	for _, it := range list.items() {
		tk := it["toolkit"].(map[string]any)["slug"]
		want := VersionLatest
		if tk == "github" {
			want = VersionOld
		}
		if it["version"] != want {
			t.Fatalf("%v version %v want %s", it["slug"], it["version"], want)
		}
	}
	if n := len(e.must(200, "GET", v+"/triggers_types?toolkit_slugs=github&toolkit_slugs=stripe", nil).items()); n != 5 {
		t.Fatalf("repeated: %d", n)
	}
	all := e.must(200, "GET", v+"/triggers_types?limit=1000", nil)
	if all.get("total_items").(float64) < 15 {
		t.Fatalf("catalog triggers: %v", all.get("total_items"))
	}
	e.mustErr(404, "not found", "GET", v+"/triggers_types?toolkit_slugs=nope", nil)
	enum := e.must(200, "GET", v+"/triggers_types/list/enum", nil)
	if len(enum.list) < 15 {
		t.Fatalf("enum: %s", enum.raw)
	}
}
