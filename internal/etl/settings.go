package etl

import (
	"crypto/x509"
	"fmt"
	"time"
)

// The environment variables a client's settings are read from when they
// are not set otherwise: every message that names a setting's source
// names them from here.
const (
	// EnvHub names the environment variable read for the hub.
	EnvHub = "ETL_HUB"
	// EnvTokenID names the environment variable read for the token's id.
	EnvTokenID = "ETL_TOKEN_ID" //nolint:gosec // an environment variable name, not a credential
	// EnvTokenSecret names the environment variable read for the token's
	// secret.
	EnvTokenSecret = "ETL_TOKEN_SECRET" //nolint:gosec // an environment variable name, not a credential
	// EnvBaseURL names the environment variable read for the base URL.
	EnvBaseURL = "ETL_BASE_URL"
	// EnvCACertFile names the environment variable read for the file of
	// extra certificate authorities.
	EnvCACertFile = "ETL_CA_CERT_FILE"
)

// The rules of the settings below each return "" for a good value, else
// what is wrong, where the value came from (the setting, or its
// environment variable) and what to do, as one or more sentences: the
// provider checks a value set in its configuration with them at plan time,
// and again with its environment variable when it builds the client.

// HubProblem returns what is wrong with a hub that is not a lower-case
// region name (CheckHub), or "" for a good one.
func HubProblem(hub string) string {
	if CheckHub(hub) == nil {
		return ""
	}
	return fmt.Sprintf("The hub %q (from the hub attribute or the %s environment variable) is not valid: "+
		"use the lower-case region name the token was issued on, such as us1, us2, us3, us5, ca3, eu1 or eu2.", hub, EnvHub)
}

// BaseURLProblem returns what is wrong with a base URL that is neither an
// absolute https URL nor http to a loopback host (ValidateBaseURL), or ""
// for a good one.
func BaseURLProblem(u string) string {
	if _, err := ValidateBaseURL(u); err != nil {
		return fmt.Sprintf("The base_url (from the base_url attribute or the %s environment variable) is not usable: %s.", EnvBaseURL, err)
	}
	return ""
}

// ParseSettingDuration parses the positive Go duration of the setting
// name, such as "500ms" or "2m"; for a bad one it returns what is wrong
// instead.
//
// Hand-written on purpose: terraform-plugin-framework-timetypes'
// GoDurationType types an attribute only, while the client's settings are
// checked here, without Terraform (at plan time by the provider's
// validator, and again when the client is built, by this one rule); and it
// accepts zero and negative durations, which these refuse.
func ParseSettingDuration(name, s string) (time.Duration, string) {
	d, err := time.ParseDuration(s)
	switch {
	case err != nil:
		return 0, fmt.Sprintf("%s: %q is not a duration: use a number with a unit, such as \"500ms\", \"30s\" or \"2m\" (units ms, s, m, h).", name, s)
	case d <= 0:
		return 0, fmt.Sprintf("%s: %q must be longer than zero.", name, s)
	}
	return d, ""
}

// hasPEMCertificate reports whether b holds at least one PEM certificate
// that parses.
func hasPEMCertificate(b []byte) bool {
	return x509.NewCertPool().AppendCertsFromPEM(b)
}

// PEMProblem returns what is wrong with a ca_cert_pem that holds no PEM
// certificate, or "" when it holds one.
func PEMProblem(b []byte) string {
	if hasPEMCertificate(b) {
		return ""
	}
	return "ca_cert_pem holds no PEM certificate: give the certificate authority's certificate as PEM text, " +
		"from \"-----BEGIN CERTIFICATE-----\" to \"-----END CERTIFICATE-----\" (for example file(\"ca.pem\")), or use ca_cert_file."
}
