// Package protocol wraps the framework's protocol 6 server: the wrappers
// NewServer (internal/provider) composes rewrite diagnostics and count writes.
package protocol

import (
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// Server is every interface the framework's protocol 6 server implements:
// the base ProviderServer and each optional one (list resources, actions,
// state stores). What wraps the framework's server embeds it whole, so that
// no RPC a newer Terraform sends answers "not implemented" because a wrapper
// hid it. TestServedInterfaces (internal/provider) fails when the
// framework's server gains an interface this one lacks. (terraform-plugin-go
// marks the optional interfaces deprecated only because their methods will
// move into ProviderServer; until then they are what serves those RPCs.)
type Server interface {
	tfprotov6.ProviderServer
	tfprotov6.ProviderServerWithListResource //nolint:staticcheck // see above
	tfprotov6.ProviderServerWithActions      //nolint:staticcheck // see above
	tfprotov6.ProviderServerWithStateStores  //nolint:staticcheck // see above
}

// Compile-time: the wrappers forward every interface of Server.
var (
	_ tfprotov6.ProviderServer                 = WholeNumbers{}
	_ tfprotov6.ProviderServerWithListResource = WholeNumbers{} //nolint:staticcheck // see Server
	_ tfprotov6.ProviderServerWithActions      = WholeNumbers{} //nolint:staticcheck // see Server
	_ tfprotov6.ProviderServerWithStateStores  = WholeNumbers{} //nolint:staticcheck // see Server
	_ Server                                   = ListConfigPaths{}
	_ Server                                   = WriteTracking{}
	_ Server                                   = RateLimitNotices{}
)
