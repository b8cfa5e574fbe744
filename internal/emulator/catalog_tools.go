package emulator

import "strings"

type toolSpec struct {
	suffix, name, desc string
	required           []string
	props              map[string]any
	tags               []string
}

var toolSpecs = map[string][]toolSpec{
	"github": {
		{"CREATE_AN_ISSUE", "Create an issue", "Creates an issue in a repository.", []string{"owner", "repo", "title"},
			map[string]any{"owner": str("Owner", "Repository owner"), "repo": str("Repo", "Repository name"), "title": str("Title", "Issue title"), "body": str("Body", "Issue body")}, []string{"issues"}},
		{"GET_A_REPOSITORY", "Get a repository", "Gets a repository by owner and name.", []string{"owner", "repo"}, ownerRepo, []string{"repos", "readOnlyHint"}},
		{"LIST_REPOSITORIES_FOR_THE_AUTHENTICATED_USER", "List repositories", "Lists repositories of the authenticated user.", nil,
			map[string]any{"per_page": integer("Per page", "Results per page", 1, 100)}, []string{"repos", "readOnlyHint"}},
	},
	"gmail": {
		{"SEND_EMAIL", "Send e-mail", "Sends an e-mail message.", []string{"recipient_email", "body"},
			map[string]any{"recipient_email": str("To", "Recipient"), "subject": str("Subject", "Subject"), "body": str("Body", "Body")}, []string{"email"}},
		{"FETCH_EMAILS", "Fetch e-mails", "Lists messages matching a query.", nil,
			map[string]any{"query": str("Query", "Gmail search query"), "max_results": integer("Max results", "Maximum messages", 1, 500)}, []string{"email", "readOnlyHint"}},
		{"CREATE_EMAIL_DRAFT", "Create draft", "Creates a draft message.", []string{"recipient_email", "body"},
			map[string]any{"recipient_email": str("To", "Recipient"), "body": str("Body", "Body")}, []string{"email"}},
	},
	"slack": {
		{"SEND_MESSAGE", "Send message", "Posts a message to a channel.", []string{"channel", "text"},
			map[string]any{"channel": str("Channel", "Channel ID"), "text": str("Text", "Message text")}, []string{"chat"}},
		{"LIST_ALL_CHANNELS", "List channels", "Lists channels in the workspace.", nil,
			map[string]any{"limit": integer("Limit", "Maximum channels", 1, 1000)}, []string{"channels", "readOnlyHint"}},
		{"ADD_REACTION_TO_AN_ITEM", "Add reaction", "Adds a reaction to a message.", []string{"channel", "name", "timestamp"},
			map[string]any{"channel": str("Channel", "Channel ID"), "name": str("Name", "Emoji name"), "timestamp": str("Timestamp", "Message ts")}, []string{"reactions"}},
	},
}

func genericToolSpecs(tk *toolkitDef) []toolSpec {
	noun := strings.ToUpper(tk.Slug)
	return []toolSpec{
		{"LIST_ITEMS", "List items", "Lists " + tk.Name + " objects.", nil,
			map[string]any{"limit": integer("Limit", "Maximum results", 1, 100), "query": str("Query", "Filter text")}, []string{"readOnlyHint"}},
		{"GET_ITEM", "Get item", "Gets one " + tk.Name + " object by ID.", []string{"id"},
			map[string]any{"id": str("ID", noun+" object ID")}, []string{"readOnlyHint"}},
		{"CREATE_ITEM", "Create item", "Creates a " + tk.Name + " object.", []string{"name"},
			map[string]any{"name": str("Name", "Name of the new object"), "description": str("Description", "Optional description")}, nil},
	}
}

func catalogTools(tk *toolkitDef) []*toolDef {
	specs, ok := toolSpecs[tk.Slug]
	if !ok {
		specs = genericToolSpecs(tk)
	}
	out := make([]*toolDef, 0, len(specs))
	for _, sp := range specs {
		in := map[string]any{"type": "object", "title": sp.name + " request", "properties": sp.props, "required": nonNil(sp.required)}
		outSchema := map[string]any{"type": "object", "title": sp.name + " response", "properties": map[string]any{
			"data":       map[string]any{"type": "object", "description": "Response data"},
			"successful": boolean("Successful", "Whether the call succeeded"),
			"error":      map[string]any{"type": "string", "nullable": true, "description": "Error message if any"},
		}, "required": []string{"data", "successful"}}
		tags := sp.tags
		if tags == nil {
			tags = []string{}
		}
		out = append(out, &toolDef{
			Slug: strings.ToUpper(tk.Slug) + "_" + sp.suffix, Name: sp.name, Description: sp.desc,
			Input: in, Output: outSchema, Tags: tags, Scopes: []string{},
		})
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
