package validators

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/integration-service/terraform-provider-service/internal/provider/importid"
)

// maxUserIDLength is the longest user_id the provider accepts.
const maxUserIDLength = 255

// UserID is the one rule for every user_id (resources, data source
// filters): 1 to 255 characters, not only white space, no surrounding white
// space and no control characters. A blank id would otherwise reach the
// service as a real (and shared) user.
func UserID() validator.String {
	return StringCheck{
		Desc:    fmt.Sprintf("a user id: 1 to %d characters, not blank, without surrounding white space or control characters", maxUserIDLength),
		Summary: "Invalid user id",
		Check:   checkUserID,
	}
}

func checkUserID(v string) error {
	switch {
	case strings.TrimSpace(v) == "":
		return fmt.Errorf("%q is blank; give your application's id of the end user", v)
	case strings.TrimSpace(v) != v:
		return fmt.Errorf("%q has white space around it; remove it (the service would store a different user)", v)
	case utf8.RuneCountInString(v) > maxUserIDLength:
		return fmt.Errorf("is %d characters long, at most %d are allowed", utf8.RuneCountInString(v), maxUserIDLength)
	case strings.ContainsFunc(v, unicode.IsControl):
		return fmt.Errorf("%q contains a control character", v)
	}
	return nil
}

// idKinds maps the prefix of service object ids to what they identify.
var idKinds = map[string]string{
	"ac_": "an auth config",
	"ca_": "a connected account",
	"ti_": "a trigger instance",
}

// ObjectID accepts an id of the service object kind whose id prefix
// is want (e.g. "ca_"): letters, digits, underscore and hyphen, not blank, and
// not an id of another known kind (an auth config id given as a connected
// account, say).
func ObjectID(want string) validator.String {
	kind := idKinds[want]
	return StringCheck{
		Desc:    fmt.Sprintf("the id of %s, such as %s1a2B3c", kind, want),
		Summary: "Invalid id",
		Check: func(v string) error {
			if !importid.ObjectIDRe.MatchString(v) {
				return fmt.Errorf("%q is not an id: it must be the id of %s such as %s1a2B3c (letters, digits, underscore, hyphen)", v, kind, want)
			}
			for prefix, other := range idKinds {
				if prefix != want && strings.HasPrefix(v, prefix) {
					return fmt.Errorf("%q is the id of %s, not of %s (%s...)", v, other, kind, want)
				}
			}
			return nil
		},
	}
}
