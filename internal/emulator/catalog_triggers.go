package emulator

// JSON-Schema helpers for catalog definitions.

func obj(required []string, props map[string]any) map[string]any {
	if required == nil {
		required = []string{}
	}
	return map[string]any{"type": "object", "properties": props, "required": required, "additionalProperties": false}
}

func str(title, desc string) map[string]any {
	return map[string]any{"type": "string", "title": title, "description": desc}
}

func strDefault(title, desc, def string) map[string]any {
	m := str(title, desc)
	m["default"] = def
	return m
}

func integer(title, desc string, minimum, maximum float64) map[string]any {
	return map[string]any{"type": "integer", "title": title, "description": desc, "minimum": minimum, "maximum": maximum}
}

func enumStr(title, desc string, values ...string) map[string]any {
	m := str(title, desc)
	vals := make([]any, len(values))
	for i, v := range values {
		vals[i] = v
	}
	m["enum"] = vals
	return m
}

func arrayOf(title, desc string, items map[string]any) map[string]any {
	return map[string]any{"type": "array", "title": title, "description": desc, "items": items}
}

func boolean(title, desc string) map[string]any {
	return map[string]any{"type": "boolean", "title": title, "description": desc}
}

// same returns a per-version config map with one schema for every version.
func same(schema map[string]any) map[string]map[string]any {
	return map[string]map[string]any{VersionOld: schema, VersionLatest: schema}
}

func payload(props map[string]any, required ...string) map[string]any {
	if required == nil {
		required = []string{}
	}
	return map[string]any{"type": "object", "title": "Payload", "properties": props, "required": required}
}

var ownerRepo = map[string]any{
	"owner": str("Owner", "Owner of the repository (user or organisation)"),
	"repo":  str("Repo", "Repository name"),
}

// catalogTriggers returns the trigger types of a toolkit.
func catalogTriggers(toolkit string) []*triggerDef {
	switch toolkit {
	case "github":
		commitOld := obj([]string{"owner", "repo"}, ownerRepo)
		commitNew := obj([]string{"owner", "repo"}, map[string]any{
			"owner":  ownerRepo["owner"],
			"repo":   ownerRepo["repo"],
			"branch": str("Branch", "Only report commits pushed to this branch (all branches when empty)"),
		})
		return []*triggerDef{
			{Slug: "GITHUB_COMMIT_EVENT", Name: "Commit Event", Type: "webhook",
				Description:  "Triggered when a new commit is pushed to a repository.",
				Instructions: "Give the repository owner and name. From toolkit version 20251015_00 you may restrict events to one branch.",
				Config:       map[string]map[string]any{VersionOld: commitOld, VersionLatest: commitNew},
				Payload: payload(map[string]any{
					"id":        str("Commit SHA", "SHA of the commit"),
					"message":   str("Message", "Commit message"),
					"author":    str("Author", "Commit author"),
					"url":       str("URL", "Commit URL"),
					"timestamp": str("Timestamp", "Commit time"),
				}, "id", "message")},
			{Slug: "GITHUB_STAR_ADDED_EVENT", Name: "Star Added", Type: "webhook",
				Description:  "Triggered when a repository receives a new star.",
				Instructions: "Give the repository owner and name.",
				Config:       same(obj([]string{"owner", "repo"}, ownerRepo)),
				Payload: payload(map[string]any{
					"action":     str("Action", "created or deleted"),
					"starred_at": str("Starred at", "Time of the star"),
					"user":       str("User", "Login of the user who starred"),
				}, "action")},
			{Slug: "GITHUB_PULL_REQUEST_EVENT", Name: "Pull Request Event", Type: "webhook",
				Description:  "Triggered when a pull request is opened, closed or reopened.",
				Instructions: "Give the repository owner and name; optionally limit to one action.",
				Config: same(obj([]string{"owner", "repo"}, map[string]any{
					"owner":  ownerRepo["owner"],
					"repo":   ownerRepo["repo"],
					"action": enumStr("Action", "Only report this pull request action", "opened", "closed", "reopened"),
				})),
				Payload: payload(map[string]any{
					"action": str("Action", "Pull request action"),
					"number": map[string]any{"type": "integer", "description": "Pull request number"},
					"title":  str("Title", "Pull request title"),
				}, "action", "number")},
		}
	case "gmail":
		return []*triggerDef{{Slug: "GMAIL_NEW_GMAIL_MESSAGE", Name: "New Gmail Message Received", Type: "poll",
			Description:  "Triggered when a new message arrives in the mailbox.",
			Instructions: "Polls the mailbox every interval minutes.",
			Config: same(obj([]string{"interval"}, map[string]any{
				"interval": integer("Interval", "Polling interval in minutes", 1, 1440),
				"labelIds": strDefault("Label IDs", "Label to watch", "INBOX"),
				"query":    str("Query", "Gmail search query to filter messages"),
				"user_id":  strDefault("User ID", "Mailbox owner", "me"),
			})),
			Payload: payload(map[string]any{
				"message_id":   str("Message ID", "Gmail message ID"),
				"thread_id":    str("Thread ID", "Gmail thread ID"),
				"sender":       str("Sender", "From header"),
				"subject":      str("Subject", "Subject header"),
				"message_text": str("Text", "Plain-text body"),
			}, "message_id")}}
	case "slack":
		return []*triggerDef{
			{Slug: "SLACK_RECEIVE_MESSAGE", Name: "Message Received", Type: "webhook",
				Description:  "Triggered when a message is posted in a channel the app can see.",
				Instructions: "Optionally restrict to one channel ID.",
				Config:       same(obj(nil, map[string]any{"channel": str("Channel", "Channel ID to watch (all channels when empty)")})),
				Payload: payload(map[string]any{
					"channel": str("Channel", "Channel ID"),
					"user":    str("User", "User ID of the sender"),
					"text":    str("Text", "Message text"),
					"ts":      str("Timestamp", "Message timestamp"),
				}, "channel", "text")},
			{Slug: "SLACK_REACTION_ADDED", Name: "Reaction Added", Type: "webhook",
				Description:  "Triggered when a reaction is added to a message.",
				Instructions: "Give the channel ID to watch.",
				Config:       same(obj([]string{"channel"}, map[string]any{"channel": str("Channel", "Channel ID to watch")})),
				Payload: payload(map[string]any{
					"reaction": str("Reaction", "Emoji name"),
					"user":     str("User", "User ID"),
					"item_ts":  str("Item timestamp", "Timestamp of the message"),
				}, "reaction")},
		}
	case "notion":
		return []*triggerDef{{Slug: "NOTION_PAGE_ADDED_TO_DATABASE", Name: "Page Added to Database", Type: "poll",
			Description:  "Triggered when a new page is added to a Notion database.",
			Instructions: "Share the database with the integration and give its ID.",
			Config: same(obj([]string{"database_id"}, map[string]any{
				"database_id": str("Database ID", "ID of the database to watch"),
				"interval":    integer("Interval", "Polling interval in minutes", 1, 60),
			})),
			Payload: payload(map[string]any{
				"page_id":    str("Page ID", "ID of the new page"),
				"url":        str("URL", "Page URL"),
				"properties": map[string]any{"type": "object", "description": "Page properties"},
			}, "page_id")}}
	case "googlecalendar":
		return []*triggerDef{{Slug: "GOOGLECALENDAR_EVENT_CREATED_TRIGGER", Name: "Event Created", Type: "poll",
			Description:  "Triggered when an event is created in a calendar.",
			Instructions: "Give the calendar ID (primary for the main calendar).",
			Config: same(obj([]string{"calendar_id"}, map[string]any{
				"calendar_id": strDefault("Calendar ID", "Calendar to watch", "primary"),
				"interval":    integer("Interval", "Polling interval in minutes", 1, 1440),
			})),
			Payload: payload(map[string]any{
				"event_id": str("Event ID", "Calendar event ID"),
				"summary":  str("Summary", "Event title"),
				"start":    str("Start", "Start time"),
				"end":      str("End", "End time"),
			}, "event_id")}}
	case "linear":
		return []*triggerDef{
			{Slug: "LINEAR_ISSUE_CREATED_TRIGGER", Name: "Issue Created", Type: "webhook",
				Description:  "Triggered when an issue is created in a team.",
				Instructions: "Give the ID of the team to watch.",
				Config:       same(obj([]string{"team_id"}, map[string]any{"team_id": str("Team ID", "ID of the Linear team")})),
				Payload: payload(map[string]any{
					"issue_id":   str("Issue ID", "Issue identifier"),
					"title":      str("Title", "Issue title"),
					"priority":   map[string]any{"type": "integer", "description": "Priority 0-4"},
					"created_at": str("Created at", "Creation time"),
				}, "issue_id", "title")},
			{Slug: "LINEAR_COMMENT_EVENT_TRIGGER", Name: "Comment Event", Type: "webhook",
				Description:  "Triggered when a comment is created, updated or removed.",
				Instructions: "Give the ID of the team to watch.",
				Config:       same(obj([]string{"team_id"}, map[string]any{"team_id": str("Team ID", "ID of the Linear team")})),
				Payload: payload(map[string]any{
					"action":  str("Action", "create, update or remove"),
					"comment": str("Comment", "Comment body"),
				}, "action")},
		}
	case "jira":
		return []*triggerDef{{Slug: "JIRA_NEW_ISSUE_TRIGGER", Name: "New Issue", Type: "poll",
			Description:  "Triggered when a new issue is created in a project.",
			Instructions: "Give the project key, e.g. ENG.",
			Config: same(obj([]string{"project_key"}, map[string]any{
				"project_key": str("Project key", "Key of the Jira project"),
				"interval":    integer("Interval", "Polling interval in minutes", 1, 1440),
			})),
			Payload: payload(map[string]any{
				"issue_key": str("Issue key", "Key of the new issue"),
				"summary":   str("Summary", "Issue summary"),
				"reporter":  str("Reporter", "Reporter display name"),
			}, "issue_key")}}
	case "hubspot":
		return []*triggerDef{{Slug: "HUBSPOT_CONTACT_CREATED_TRIGGER", Name: "Contact Created", Type: "poll",
			Description:  "Triggered when a contact is created in the CRM.",
			Instructions: "Optionally list the contact properties to include.",
			Config: same(obj(nil, map[string]any{
				"properties": arrayOf("Properties", "Contact properties to include in the payload", map[string]any{"type": "string"}),
				"interval":   integer("Interval", "Polling interval in minutes", 1, 1440),
			})),
			Payload: payload(map[string]any{
				"contact_id": str("Contact ID", "HubSpot contact ID"),
				"email":      str("E-mail", "Contact e-mail"),
				"properties": map[string]any{"type": "object"},
			}, "contact_id")}}
	case "salesforce":
		return []*triggerDef{{Slug: "SALESFORCE_NEW_LEAD_TRIGGER", Name: "New Lead", Type: "poll",
			Description:  "Triggered when a new lead is created.",
			Instructions: "Polls for new leads every interval minutes.",
			Config:       same(obj([]string{"interval"}, map[string]any{"interval": integer("Interval", "Polling interval in minutes", 1, 1440)})),
			Payload: payload(map[string]any{
				"lead_id": str("Lead ID", "Salesforce lead ID"),
				"name":    str("Name", "Lead name"),
				"company": str("Company", "Lead company"),
			}, "lead_id")}}
	case "discord":
		return []*triggerDef{{Slug: "DISCORD_NEW_MESSAGE_TRIGGER", Name: "New Channel Message", Type: "webhook",
			Description:  "Triggered when a message is posted in a channel.",
			Instructions: "Give the channel ID to watch.",
			Config:       same(obj([]string{"channel_id"}, map[string]any{"channel_id": str("Channel ID", "Discord channel ID")})),
			Payload: payload(map[string]any{
				"message_id": str("Message ID", "Discord message ID"),
				"content":    str("Content", "Message content"),
				"author":     str("Author", "Author username"),
			}, "message_id")}}
	case "airtable":
		return []*triggerDef{{Slug: "AIRTABLE_NEW_RECORD_TRIGGER", Name: "New Record", Type: "poll",
			Description:  "Triggered when a record is added to a table.",
			Instructions: "Give the base ID and the table name or ID.",
			Config: same(obj([]string{"base_id", "table_name"}, map[string]any{
				"base_id":    str("Base ID", "Airtable base ID (app...)"),
				"table_name": str("Table", "Table name or ID"),
				"view":       str("View", "Only records visible in this view"),
			})),
			Payload: payload(map[string]any{
				"record_id": str("Record ID", "Airtable record ID"),
				"fields":    map[string]any{"type": "object"},
			}, "record_id")}}
	case "stripe":
		return []*triggerDef{
			{Slug: "STRIPE_CHARGE_SUCCEEDED_TRIGGER", Name: "Charge Succeeded", Type: "webhook",
				Description:  "Triggered when a charge succeeds.",
				Instructions: "Optionally ignore charges below a minimum amount (in the smallest currency unit).",
				Config: same(obj(nil, map[string]any{
					"min_amount": integer("Minimum amount", "Ignore charges below this amount (smallest currency unit)", 0, 100000000),
				})),
				Payload: payload(map[string]any{
					"charge_id": str("Charge ID", "Stripe charge ID"),
					"amount":    map[string]any{"type": "integer", "description": "Amount in the smallest currency unit"},
					"currency":  str("Currency", "Three-letter ISO currency code"),
					"customer":  str("Customer", "Customer ID"),
				}, "charge_id", "amount")},
			{Slug: "STRIPE_PAYMENT_FAILED_TRIGGER", Name: "Payment Failed", Type: "webhook",
				Description:  "Triggered when a payment intent fails.",
				Instructions: "No configuration needed.",
				Config:       same(obj(nil, map[string]any{})),
				Payload: payload(map[string]any{
					"payment_intent_id": str("Payment intent ID", "Stripe payment intent ID"),
					"failure_message":   str("Failure message", "Reason given by the card network"),
				}, "payment_intent_id")},
		}
	case "mailchimp":
		return []*triggerDef{{Slug: "MAILCHIMP_NEW_SUBSCRIBER_TRIGGER", Name: "New Subscriber", Type: "webhook",
			Description:  "Triggered when someone subscribes to an audience.",
			Instructions: "Give the audience (list) ID.",
			Config: same(obj([]string{"list_id"}, map[string]any{
				"list_id":       str("Audience ID", "Mailchimp audience (list) ID"),
				"double_opt_in": boolean("Double opt-in only", "Only report confirmed subscribers"),
			})),
			Payload: payload(map[string]any{
				"email":   str("E-mail", "Subscriber e-mail"),
				"list_id": str("Audience ID", "Audience ID"),
			}, "email")}}
	case "quickbooks":
		return []*triggerDef{{Slug: "QUICKBOOKS_INVOICE_CREATED_TRIGGER", Name: "Invoice Created", Type: "poll",
			Description:  "Triggered when an invoice is created.",
			Instructions: "Give the company (realm) ID.",
			Config:       same(obj([]string{"realm_id"}, map[string]any{"realm_id": str("Realm ID", "QuickBooks company ID")})),
			Payload: payload(map[string]any{
				"invoice_id": str("Invoice ID", "Invoice ID"),
				"total":      map[string]any{"type": "number"},
			}, "invoice_id")}}
	}
	return nil
}
