package deposit

import (
	"bytes"
	"crypto/hmac"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"net/http"
	"os"
	"strings"
)

// Profile is a provider profile's signing and acknowledgement rules (docs/provider-profile.md),
// written from each built-in profile with the standard library only: how a request is signed and
// where the signature travels, how a callback is signed, and what acknowledges one.
type Profile struct {
	Name        string
	Algorithm   string // hmac-sha256 | hmac-sha512 | sha256 | sha512 | sha1 | md5
	Separator   string
	Secret      string // key (the HMAC key) | last-slot | first-slot (plain hashes)
	Encoding    string // hex | base64
	Header      string // "": the endpoint's token header
	Callbacks   string // sandbox | request-style | standard-webhooks
	Acknowledge string // 2xx | ok-text | code-zero
}

// Builtin holds the built-in profiles by name.
var Builtin = map[string]Profile{
	"sandbox":            {"sandbox", "hmac-sha256", "::", "key", "hex", "", "sandbox", "2xx"},
	"sha256-secret-last": {"sha256-secret-last", "sha256", "::", "last-slot", "hex", "", "request-style", "2xx"},
	"hmac-sha512-base64": {"hmac-sha512-base64", "hmac-sha512", "::", "key", "base64", "X-Signature", "request-style", "2xx"},
	"md5-colon":          {"md5-colon", "md5", ":", "last-slot", "hex", "", "request-style", "ok-text"},
	"standard-webhooks":  {"standard-webhooks", "hmac-sha256", "::", "key", "hex", "", "standard-webhooks", "code-zero"},
	"strict":             {"strict", "hmac-sha256", "::", "key", "hex", "", "sandbox", "2xx"},
}

// SignatureFields are each endpoint's signature parameters, in the interface document's order.
var SignatureFields = map[string][]string{
	"create": {"amount_cents", "amount_currency", "callback_url", "cusotmer", "merchant", "order", "return_url", "type"},
	"build":  {"amount_cents", "amount_currency", "callback_url", "cusotmer", "merchant", "order", "return_url", "type"},
	"get":    {"merchant", "uuid"},
}

// TokenHeader carries the merchant's token (and the signature, unless the profile has a header of its own).
var TokenHeader = map[string]string{"create": "X-Auth", "build": "X-Auth", "get": "X-Token"}

// callbackFields are what a request-style callback signature covers: the body's top-level values in the Trade object's order.
var callbackFields = []string{"id", "order", "merchant", "state", "amount_cents", "amount_currency", "rate"}

// ProfileFromEnv is the built-in profile DEPOSIT_SANDBOX_PROFILE names; sandbox when it is unset.
func ProfileFromEnv() (Profile, error) {
	name := os.Getenv("DEPOSIT_SANDBOX_PROFILE")
	if name == "" {
		name = "sandbox"
	}
	p, ok := Builtin[name]
	if !ok {
		return Profile{}, fmt.Errorf("DEPOSIT_SANDBOX_PROFILE=%q is not a built-in profile", name)
	}
	return p, nil
}

// StringToSign is the endpoint's values in the document's order joined with the profile's
// separator, the secret one more slot for a plain hash ("<secret>" shows where); an absent value
// is empty, and "customer" fills the document's "cusotmer" slot.
func (p Profile) StringToSign(endpoint string, values map[string]string, secret string) string {
	var slots []string
	for _, name := range SignatureFields[endpoint] {
		value, ok := values[name]
		if name == "cusotmer" && !ok {
			value = values["customer"]
		}
		slots = append(slots, value)
	}
	return p.join(slots, secret)
}

func (p Profile) join(slots []string, secret string) string {
	switch p.Secret {
	case "last-slot":
		slots = append(slots, secret)
	case "first-slot":
		slots = append([]string{secret}, slots...)
	}
	return strings.Join(slots, p.Separator)
}

func (p Profile) digest(secret, message string) string {
	hashes := map[string]func() hash.Hash{"sha256": sha256.New, "sha512": sha512.New, "sha1": sha1.New, "md5": md5.New}
	var h hash.Hash
	if name := strings.TrimPrefix(p.Algorithm, "hmac-"); name != p.Algorithm {
		h = hmac.New(hashes[name], []byte(secret))
	} else {
		h = hashes[p.Algorithm]()
	}
	h.Write([]byte(message))
	if p.Encoding == "base64" {
		return base64.StdEncoding.EncodeToString(h.Sum(nil))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// SignRequest is the request's signature under the profile.
func (p Profile) SignRequest(secret, endpoint string, values map[string]string) string {
	return p.digest(secret, p.StringToSign(endpoint, values, secret))
}

// SignatureHeader is where the signature travels: the profile's own header, or the endpoint's token header.
func (p Profile) SignatureHeader(endpoint string) string {
	if p.Header != "" {
		return p.Header
	}
	return TokenHeader[endpoint]
}

// SetAuth sets a signed request's headers: the signature in its header and, when that is a
// header of its own, the merchant's token in X-Auth / X-Token beside it.
func (p Profile) SetAuth(req *http.Request, secret, token, endpoint string, values map[string]string) {
	if p.Header != "" {
		req.Header.Set(TokenHeader[endpoint], token)
	}
	req.Header.Set(p.SignatureHeader(endpoint), p.SignRequest(secret, endpoint, values))
}

// VerifyCallback reports whether the callback's signature is the one the profile's scheme
// makes, compared in constant time (hex in either case).
func (p Profile) VerifyCallback(secret string, header http.Header, raw []byte) bool {
	switch p.Callbacks {
	case "sandbox":
		return hmac.Equal([]byte(Sign(secret, raw)), []byte(strings.ToLower(header.Get("X-Signature"))))
	case "request-style":
		decoder := json.NewDecoder(bytes.NewReader(raw))
		decoder.UseNumber() // numbers keep the text they have in the body
		var body map[string]interface{}
		if decoder.Decode(&body) != nil {
			return false
		}
		var slots []string
		for _, name := range callbackFields {
			switch value := body[name].(type) {
			case nil:
				slots = append(slots, "")
			case string:
				slots = append(slots, value)
			default:
				slots = append(slots, fmt.Sprint(value))
			}
		}
		name := p.Header
		if name == "" {
			name = "X-Signature"
		}
		received := strings.TrimSpace(header.Get(name))
		if p.Encoding == "hex" {
			received = strings.ToLower(received)
		}
		return hmac.Equal([]byte(p.digest(secret, p.join(slots, secret))), []byte(received))
	case "standard-webhooks":
		key := []byte(secret)
		if strings.HasPrefix(secret, "whsec_") {
			decoded, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
			if err != nil {
				return false
			}
			key = decoded
		}
		mac := hmac.New(sha256.New, key)
		mac.Write([]byte(header.Get("webhook-id") + "." + header.Get("webhook-timestamp") + "."))
		mac.Write(raw)
		expected := "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil))
		for _, sent := range strings.Fields(header.Get("webhook-signature")) {
			if hmac.Equal([]byte(expected), []byte(sent)) {
				return true
			}
		}
	}
	return false
}

// Acknowledgement is what a receiver answers to acknowledge a callback: the status and the body.
func (p Profile) Acknowledgement() (int, []byte) {
	switch p.Acknowledge {
	case "ok-text":
		return http.StatusOK, []byte("OK") // exactly OK: no newline, no other case
	case "code-zero":
		return http.StatusOK, []byte(`{"code":0}`)
	}
	return http.StatusNoContent, nil
}

// Values are the create signature's values of the request.
func (r CreateRequest) Values() map[string]string {
	return map[string]string{
		"amount_cents": fmt.Sprint(r.AmountCents), "amount_currency": r.AmountCurrency, "callback_url": r.CallbackURL,
		"cusotmer": r.Customer, "merchant": r.Merchant, "order": r.Order, "return_url": r.ReturnURL, "type": r.Type,
	}
}
