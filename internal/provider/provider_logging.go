package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// maskSecret masks every form of the token secret (etl.SecretForms: raw,
// the HTTP Basic credentials in each base64 alphabet, URL-encoded, inside
// JSON) in every log line written with the returned context.
func maskSecret(ctx context.Context, tokenID, secret string) context.Context {
	return maskForms(ctx, etl.SecretForms(tokenID, secret))
}

// maskForms masks each of forms in the messages and field values of every
// log line written with the returned context.
func maskForms(ctx context.Context, forms []string) context.Context {
	if len(forms) == 0 {
		return ctx
	}
	ctx = tflog.MaskAllFieldValuesStrings(ctx, forms...)
	ctx = tflog.MaskMessageStrings(ctx, forms...)
	return ctx
}

// tflogFunc adapts the client's log lines to tflog, masking the secret on
// every call (the client logs with the context of the current request).
func tflogFunc(tokenID, secret string) etl.LogFunc {
	forms := etl.SecretForms(tokenID, secret)
	return func(ctx context.Context, level, msg string, fields map[string]any) {
		ctx = maskForms(ctx, forms)
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
