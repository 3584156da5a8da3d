package etl

import (
	"bytes"
	"cmp"
	"encoding/base64"
	"encoding/json"
	"net/url"
	"slices"
	"strings"
)

// redacted is the text Redact puts in place of every form of the secret in
// messages and log lines.
const redacted = "[redacted]"

// SecretForms returns every form in which the token secret could leak into
// an answer body, an error or a log line: the raw secret; "id:secret" and
// its base64 (standard, raw, URL-safe and raw URL-safe alphabets); the whole
// "Basic <base64>" Authorization value; the secret URL-encoded (query and
// path escaping); and each of those as it reads inside a JSON string. It
// holds no empty strings and no duplicates, longest first, and is empty
// when the secret is.
func SecretForms(tokenID, secret string) []string {
	if secret == "" {
		return nil
	}
	pair := []byte(tokenID + ":" + secret)
	base := []string{
		secret,
		tokenID + ":" + secret,
		url.QueryEscape(secret),
		url.PathEscape(secret),
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		b64 := enc.EncodeToString(pair)
		base = append(base, b64, "Basic "+b64)
	}
	forms := slices.Clone(base)
	for _, f := range base {
		for _, html := range []bool{false, true} {
			j := jsonEscaped(f, html)
			forms = append(forms, j, strings.ReplaceAll(j, "/", `\/`))
		}
	}
	forms = slices.DeleteFunc(forms, func(s string) bool { return s == "" })
	slices.SortFunc(forms, func(a, b string) int {
		if c := cmp.Compare(len(b), len(a)); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	return slices.Compact(forms)
}

// jsonEscaped is s as it reads between the quotes of a JSON string, with or
// without the HTML escapes (\u0026 for '&' and so on) some encoders add.
func jsonEscaped(s string, html bool) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(html)
	if err := enc.Encode(s); err != nil {
		return s
	}
	j := bytes.TrimSpace(b.Bytes())
	return string(j[1 : len(j)-1])
}

// Redact replaces each of forms in s with "[redacted]", longest form first
// (so that a form containing another is replaced whole). It is the one
// redaction path: every answer body, error message and log field the client
// produces passes through it.
func Redact(s string, forms []string) string {
	if len(forms) == 0 || s == "" {
		return s
	}
	longestFirst := func(a, b string) int { return cmp.Compare(len(b), len(a)) }
	if !slices.IsSortedFunc(forms, longestFirst) {
		forms = slices.Clone(forms)
		slices.SortStableFunc(forms, longestFirst)
	}
	for _, f := range forms {
		if f != "" {
			s = strings.ReplaceAll(s, f, redacted)
		}
	}
	return s
}
