package emulator

func strp(s string) *string { return &s }

func oauth2Scheme(managed bool, defaultScopes string, initOptional ...fieldDef) schemeDef {
	return schemeDef{
		Mode: "OAUTH2", Name: "OAuth 2.0", Managed: managed,
		CreationRequired: []fieldDef{
			{Name: "client_id", DisplayName: "Client ID", Type: "string", Description: "OAuth client ID of your app"},
			{Name: "client_secret", DisplayName: "Client Secret", Type: "string", Description: "OAuth client secret of your app", Secret: true},
		},
		CreationOptional: []fieldDef{
			{Name: "scopes", DisplayName: "Scopes", Type: "string", Description: "Comma separated OAuth scopes to request", Default: strp(defaultScopes)},
			{Name: "user_scopes", DisplayName: "User scopes", Type: "string", Description: "Comma separated user-level scopes"},
		},
		InitOptional: initOptional,
	}
}

func apiKeyScheme(initOptional ...fieldDef) schemeDef {
	return schemeDef{
		Mode: "API_KEY", Name: "API Key",
		CreationOptional: []fieldDef{
			{Name: "base_url", DisplayName: "Base URL", Type: "string", Description: "Override the API base URL"},
		},
		InitRequired: []fieldDef{
			{Name: "api_key", DisplayName: "API Key", Type: "string", Description: "API key of the account", Secret: true},
		},
		InitOptional: initOptional,
	}
}

func basicScheme(initOptional ...fieldDef) schemeDef {
	return schemeDef{
		Mode: "BASIC", Name: "Basic Auth",
		InitRequired: []fieldDef{
			{Name: "username", DisplayName: "Username", Type: "string", Description: "Account username or e-mail"},
			{Name: "password", DisplayName: "Password", Type: "string", Description: "Account password or API token", Secret: true},
		},
		InitOptional: initOptional,
	}
}

func bearerScheme() schemeDef {
	return schemeDef{
		Mode: "BEARER_TOKEN", Name: "Bearer Token",
		InitRequired: []fieldDef{
			{Name: "token", DisplayName: "Token", Type: "string", Description: "Bearer token sent in the Authorization header", Secret: true},
		},
	}
}

var subdomainField = fieldDef{Name: "subdomain", DisplayName: "Subdomain", Type: "string", Description: "Your site subdomain, e.g. acme for acme.atlassian.net"}

// catalogToolkits is the built-in toolkit list.
func catalogToolkits() []*toolkitDef {
	return []*toolkitDef{
		{Slug: "github", Name: "GitHub", Description: "GitHub is a code hosting platform for version control and collaboration.",
			AppURL: "https://github.com", BaseURL: "https://api.github.com", Categories: []string{"developer-tools"}, Popularity: 100,
			Schemes: []schemeDef{oauth2Scheme(true, "repo,read:user")}},
		{Slug: "gmail", Name: "Gmail", Description: "Gmail is Google's e-mail service.",
			AppURL: "https://mail.google.com", BaseURL: "https://gmail.googleapis.com", Categories: []string{"communication"}, Popularity: 98,
			Schemes: []schemeDef{oauth2Scheme(true, "https://www.googleapis.com/auth/gmail.modify")}},
		{Slug: "slack", Name: "Slack", Description: "Slack is a channel-based messaging platform for teams.",
			AppURL: "https://slack.com", BaseURL: "https://slack.com/api", Categories: []string{"communication"}, Popularity: 95,
			Schemes: []schemeDef{oauth2Scheme(true, "channels:read,chat:write"), bearerScheme()}},
		{Slug: "notion", Name: "Notion", Description: "Notion is a workspace for notes, docs, wikis and databases.",
			AppURL: "https://www.notion.so", BaseURL: "https://api.notion.com/v1", Categories: []string{"productivity"}, Popularity: 90,
			Schemes: []schemeDef{oauth2Scheme(true, ""), apiKeyScheme()}},
		{Slug: "googlecalendar", Name: "Google Calendar", Description: "Google Calendar is a time-management and scheduling service.",
			AppURL: "https://calendar.google.com", BaseURL: "https://www.googleapis.com/calendar/v3", Categories: []string{"productivity"}, Popularity: 88,
			Schemes: []schemeDef{oauth2Scheme(true, "https://www.googleapis.com/auth/calendar")}},
		{Slug: "linear", Name: "Linear", Description: "Linear is an issue tracker for software teams.",
			AppURL: "https://linear.app", BaseURL: "https://api.linear.app/graphql", Categories: []string{"productivity"}, Popularity: 80,
			Schemes: []schemeDef{oauth2Scheme(true, "read,write"), apiKeyScheme()}},
		{Slug: "jira", Name: "Jira", Description: "Jira is Atlassian's issue and project tracker.",
			AppURL: "https://www.atlassian.com/software/jira", BaseURL: "https://api.atlassian.com", Categories: []string{"productivity", "developer-tools"}, Popularity: 78,
			Schemes: []schemeDef{oauth2Scheme(true, "read:jira-work,write:jira-work", subdomainField), basicScheme(subdomainField)}},
		{Slug: "hubspot", Name: "HubSpot", Description: "HubSpot is a CRM and marketing automation platform.",
			AppURL: "https://www.hubspot.com", BaseURL: "https://api.hubapi.com", Categories: []string{"crm", "marketing"}, Popularity: 75,
			Schemes: []schemeDef{oauth2Scheme(true, "crm.objects.contacts.read"), apiKeyScheme()}},
		{Slug: "salesforce", Name: "Salesforce", Description: "Salesforce is a customer relationship management platform.",
			AppURL: "https://www.salesforce.com", BaseURL: "https://login.salesforce.com", Categories: []string{"crm"}, Popularity: 70,
			Schemes: []schemeDef{oauth2Scheme(true, "api,refresh_token",
				fieldDef{Name: "instance_url", DisplayName: "Instance URL", Type: "string", Description: "Your Salesforce instance URL"})}},
		{Slug: "discord", Name: "Discord", Description: "Discord is a voice, video and text community platform.",
			AppURL: "https://discord.com", BaseURL: "https://discord.com/api/v10", Categories: []string{"communication"}, Popularity: 65,
			Schemes: []schemeDef{oauth2Scheme(true, "identify,guilds"), bearerScheme()}},
		{Slug: "airtable", Name: "Airtable", Description: "Airtable is a spreadsheet-database hybrid for teams.",
			AppURL: "https://airtable.com", BaseURL: "https://api.airtable.com/v0", Categories: []string{"productivity"}, Popularity: 60,
			Schemes: []schemeDef{oauth2Scheme(false, "data.records:read,data.records:write"), apiKeyScheme()}},
		{Slug: "stripe", Name: "Stripe", Description: "Stripe is a payments platform for internet businesses.",
			AppURL: "https://stripe.com", BaseURL: "https://api.stripe.com/v1", Categories: []string{"finance"}, Popularity: 58,
			Schemes: []schemeDef{apiKeyScheme()}},
		{Slug: "mailchimp", Name: "Mailchimp", Description: "Mailchimp is an e-mail marketing platform.",
			AppURL: "https://mailchimp.com", BaseURL: "https://us1.api.mailchimp.com/3.0", Categories: []string{"marketing"}, Popularity: 50,
			Schemes: []schemeDef{apiKeyScheme(fieldDef{Name: "dc", DisplayName: "Data center", Type: "string", Description: "Data center prefix, e.g. us21", Default: strp("us1")})}},
		{Slug: "quickbooks", Name: "QuickBooks", Description: "QuickBooks is accounting software for small businesses.",
			AppURL: "https://quickbooks.intuit.com", BaseURL: "https://quickbooks.api.intuit.com", Categories: []string{"finance"}, Popularity: 45,
			Schemes: []schemeDef{oauth2Scheme(true, "com.intuit.quickbooks.accounting")}},
	}
}
