// Package deposit is a small client of the Deposit Trade Service (signature mode) and a
// callback receiver that credits each trade once. Standard library only.
package deposit

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
)

// Trade is a trade as the provider returns it.
type Trade struct {
	ID             string            `json:"id"`
	Order          string            `json:"order"`
	Merchant       string            `json:"merchant"`
	State          string            `json:"state"`
	AmountCents    int64             `json:"amount_cents"`
	AmountCurrency string            `json:"amount_currency"`
	Rate           float64           `json:"rate"`
	PaymentData    map[string]string `json:"payment_data"`
}

// CreateRequest is the body of POST /api/v1/trades/deposit/create.
type CreateRequest struct {
	Merchant       string `json:"merchant"`
	Order          string `json:"order"`
	AmountCents    int64  `json:"amount_cents"`
	AmountCurrency string `json:"amount_currency"`
	Type           string `json:"type"` // any_bank or nspk
	Customer       string `json:"customer,omitempty"`
	CallbackURL    string `json:"callback_url,omitempty"`
	ReturnURL      string `json:"return_url,omitempty"`
}

// StringToSign is the create signature's fields in the document's order joined with "::";
// an absent field is empty (the document's "cusotmer" slot holds the customer).
func (r CreateRequest) StringToSign() string {
	return strings.Join([]string{
		fmt.Sprint(r.AmountCents), r.AmountCurrency, r.CallbackURL, r.Customer,
		r.Merchant, r.Order, r.ReturnURL, r.Type,
	}, "::")
}

// Sign is the lowercase hex HMAC-SHA256 of message keyed with the merchant's secret.
func Sign(secret string, message []byte) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write(message)
	return hex.EncodeToString(mac.Sum(nil))
}

// Error is an answer other than the expected status.
type Error struct {
	Status int
	Body   string
}

func (e *Error) Error() string {
	return fmt.Sprintf("the provider answered %d: %.300s", e.Status, e.Body)
}

// Client calls the provider as one merchant, signing as Profile says (nil: the built-in that
// DEPOSIT_SANDBOX_PROFILE names, else sandbox's HMAC-SHA256 hex in X-Auth / X-Token). Token goes
// beside a signature that has a header of its own.
type Client struct {
	BaseURL  string
	Merchant string
	Secret   string
	Token    string
	Profile  *Profile
	HTTP     *http.Client
}

func (c *Client) profile() (Profile, error) {
	if c.Profile != nil {
		return *c.Profile, nil
	}
	return ProfileFromEnv()
}

// Create creates a P2P deposit trade, signed in X-Auth (or in the profile's own header).
func (c *Client) Create(ctx context.Context, r CreateRequest) (*Trade, error) {
	r.Merchant, r.AmountCurrency = c.Merchant, "RUB"
	profile, err := c.profile()
	if err != nil {
		return nil, err
	}
	body, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.BaseURL+"/api/v1/trades/deposit/create", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	profile.SetAuth(req, c.Secret, c.Token, "create", r.Values())
	return c.do(req, http.StatusCreated)
}

// savedID finds the id the sandbox's duplicate_order names: "... already exists for this merchant (id <uuid>) ...".
var savedID = regexp.MustCompile(`\(id ([0-9a-f-]{36})\)`)

// CreateOrRecover is Create, surviving an answer that never comes (the connection closed, or a
// timeout): the trade may be saved all the same, so the create is retried with the SAME order
// first. A 201 is the trade. A 422 duplicate_order says an earlier attempt saved it. Its id is then
// read from the error where the provider names it; where it does not, that trade's requisites never
// reached us, so the payer cannot pay it: it is left to expire (its callbacks carry its order and
// id, so the receiver still learns it) and the payer gets a trade under newOrder ("" for none).
// The trade returned is the one to show the payer: its Order says which order that is.
func (c *Client) CreateOrRecover(ctx context.Context, r CreateRequest, newOrder string) (*Trade, error) {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		var trade *Trade
		trade, err = c.Create(ctx, r)
		var refused *Error
		switch {
		case err == nil:
			return trade, nil
		case errors.As(err, &refused):
			if refused.Status != http.StatusUnprocessableEntity || !strings.Contains(refused.Body, `"duplicate_order"`) {
				return nil, err
			}
			// An earlier attempt was saved. The sandbox names it in the message: a convenience of
			// its own, which a provider profile turns off (duplicate_order_names_trade: false).
			if found := savedID.FindStringSubmatch(refused.Body); found != nil {
				return c.Get(ctx, found[1])
			}
			if newOrder == "" || newOrder == r.Order {
				return nil, err
			}
			// The document gives no way to find a trade by its order: a new order for the payer.
			r.Order = newOrder
			return c.CreateOrRecover(ctx, r, "")
		}
		// No answer (a network error or a timeout): saved or not, we cannot tell; ask again.
	}
	return nil, err
}

// Get reads a trade back, signed over merchant::uuid in X-Token (or in the profile's own header).
func (c *Client) Get(ctx context.Context, id string) (*Trade, error) {
	profile, err := c.profile()
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.BaseURL+"/api/v1/trades/"+c.Merchant+"/"+id, nil)
	if err != nil {
		return nil, err
	}
	profile.SetAuth(req, c.Secret, c.Token, "get", map[string]string{"merchant": c.Merchant, "uuid": id})
	return c.do(req, http.StatusOK)
}

func (c *Client) do(req *http.Request, want int) (*Trade, error) {
	client := c.HTTP
	if client == nil {
		client = http.DefaultClient
	}
	res, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, err
	}
	if res.StatusCode != want {
		return nil, &Error{Status: res.StatusCode, Body: string(body)}
	}
	var trade Trade
	if err := json.Unmarshal(body, &trade); err != nil {
		return nil, err
	}
	return &trade, nil
}
