package protocol

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// RateLimitNotices tells the user, as a warning on the answer of an RPC
// (a refresh, plan, apply, import, data source read, ephemeral open or the
// provider's configuration), that the requests it sent waited for the
// service's rate limit for Min or longer, how long and why. Without it a
// throttled plan sits on "Refreshing state..." and says nothing: the
// provider's logs, where the client also says so, are shown only with
// TF_LOG. The provider's client reports each wait through NoteRateLimitWait
// with the request's ctx, which is the RPC's. Terraform folds the same
// warning of many resources into one ("and N more similar warnings").
type RateLimitNotices struct {
	Server
	Min time.Duration
}

type rateLimitWaitsKey struct{}

// rateLimitWaits are the waits of one RPC's requests.
type rateLimitWaits struct {
	mu      sync.Mutex
	n       int
	total   time.Duration
	longest time.Duration
	cause   string // of the longest
}

// NoteRateLimitWait records a request's wait in the RPC ctx belongs to
// (nothing when ctx is not an RPC's of RateLimitNotices).
func NoteRateLimitWait(ctx context.Context, waited time.Duration, cause string) {
	w, _ := ctx.Value(rateLimitWaitsKey{}).(*rateLimitWaits)
	if w == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.n++
	w.total += waited
	if waited > w.longest {
		w.longest, w.cause = waited, cause
	}
}

func (s RateLimitNotices) track(ctx context.Context) (context.Context, func(what string) []*tfprotov6.Diagnostic) {
	w := &rateLimitWaits{}
	return context.WithValue(ctx, rateLimitWaitsKey{}, w), func(what string) []*tfprotov6.Diagnostic {
		w.mu.Lock()
		defer w.mu.Unlock()
		if w.longest < s.Min {
			return nil
		}
		requests := "1 request"
		if w.n > 1 {
			requests = fmt.Sprintf("%d requests", w.n)
		}
		return []*tfprotov6.Diagnostic{{
			Severity: tfprotov6.DiagnosticSeverityWarning,
			Summary:  "Slowed down by the service's rate limit",
			Detail: fmt.Sprintf("The %s waited %s before its requests were sent (%s held back, the longest %s): %s.\n\n"+
				"Every request of the provider waits together, so a large plan or apply slows down instead of failing; "+
				"nothing needs to change. If other pipelines share the organization's limit, max_requests_per_minute "+
				"caps this provider's share. The provider's log (TF_LOG_PROVIDER=INFO) shows each wait as it starts.",
				what, w.total.Round(100*time.Millisecond), requests, w.longest.Round(100*time.Millisecond), w.cause),
		}}
	}
}

// noticed answers an RPC through rpc, the wrapped server's, and adds the
// rate limit notice of what (see track) to the answer's diagnostics, which
// diags points to (nothing when there is no answer).
func noticed[Req, Resp any](ctx context.Context, s RateLimitNotices, req Req, rpc func(context.Context, Req) (*Resp, error),
	what string, diags func(*Resp) *[]*tfprotov6.Diagnostic) (*Resp, error) {
	ctx, notice := s.track(ctx)
	resp, err := rpc(ctx, req)
	if resp != nil {
		d := diags(resp)
		*d = append(*d, notice(what)...)
	}
	return resp, err
}

func (s RateLimitNotices) ConfigureProvider(ctx context.Context, req *tfprotov6.ConfigureProviderRequest) (*tfprotov6.ConfigureProviderResponse, error) {
	return noticed(ctx, s, req, s.Server.ConfigureProvider, "provider's configuration",
		func(r *tfprotov6.ConfigureProviderResponse) *[]*tfprotov6.Diagnostic { return &r.Diagnostics })
}

func (s RateLimitNotices) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	return noticed(ctx, s, req, s.Server.ReadResource, "refresh of this "+req.TypeName,
		func(r *tfprotov6.ReadResourceResponse) *[]*tfprotov6.Diagnostic { return &r.Diagnostics })
}

func (s RateLimitNotices) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	return noticed(ctx, s, req, s.Server.PlanResourceChange, "plan of this "+req.TypeName,
		func(r *tfprotov6.PlanResourceChangeResponse) *[]*tfprotov6.Diagnostic { return &r.Diagnostics })
}

func (s RateLimitNotices) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	return noticed(ctx, s, req, s.Server.ApplyResourceChange, "apply of this "+req.TypeName,
		func(r *tfprotov6.ApplyResourceChangeResponse) *[]*tfprotov6.Diagnostic { return &r.Diagnostics })
}

func (s RateLimitNotices) ImportResourceState(ctx context.Context, req *tfprotov6.ImportResourceStateRequest) (*tfprotov6.ImportResourceStateResponse, error) {
	return noticed(ctx, s, req, s.Server.ImportResourceState, "import of this "+req.TypeName,
		func(r *tfprotov6.ImportResourceStateResponse) *[]*tfprotov6.Diagnostic { return &r.Diagnostics })
}

func (s RateLimitNotices) ReadDataSource(ctx context.Context, req *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	return noticed(ctx, s, req, s.Server.ReadDataSource, "read of data source "+req.TypeName,
		func(r *tfprotov6.ReadDataSourceResponse) *[]*tfprotov6.Diagnostic { return &r.Diagnostics })
}

func (s RateLimitNotices) OpenEphemeralResource(ctx context.Context, req *tfprotov6.OpenEphemeralResourceRequest) (*tfprotov6.OpenEphemeralResourceResponse, error) {
	return noticed(ctx, s, req, s.Server.OpenEphemeralResource, "open of ephemeral resource "+req.TypeName,
		func(r *tfprotov6.OpenEphemeralResourceResponse) *[]*tfprotov6.Diagnostic { return &r.Diagnostics })
}
