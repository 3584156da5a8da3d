package provider

import (
	"context"
	"encoding/base64"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// maskSecret masks the token secret and the HTTP Basic credentials built
// from it in every log line written with the returned context.
func maskSecret(ctx context.Context, tokenID, secret string) context.Context {
	if secret == "" {
		return ctx
	}
	basic := base64.StdEncoding.EncodeToString([]byte(tokenID + ":" + secret))
	ctx = tflog.MaskAllFieldValuesStrings(ctx, secret, basic)
	ctx = tflog.MaskMessageStrings(ctx, secret, basic)
	return ctx
}

// tflogFunc adapts the client's log lines to tflog, masking the secret on
// every call (the client logs with the context of the current request).
func tflogFunc(tokenID, secret string) etl.LogFunc {
	return func(ctx context.Context, level, msg string, fields map[string]any) {
		ctx = maskSecret(ctx, tokenID, secret)
		switch level {
		case "trace":
			tflog.Trace(ctx, msg, fields)
		case "warn":
			tflog.Warn(ctx, msg, fields)
		default:
			tflog.Debug(ctx, msg, fields)
		}
	}
}
