package deposit

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

const (
	merchant = "6f1c2a9e-3b7d-4c52-9a1e-2d4b8f0c7e51" // the bundled demo merchant
	secret   = "sandbox-secret-demo"
	token    = "sandbox-token-demo" // sent beside the signature under a profile whose signature has a header of its own
)

// profileName is the provider profile the flow runs under: DEPOSIT_SANDBOX_PROFILE=md5-colon (or
// another built-in) starts the sandbox with --profile, and the client and the receiver follow it.
func profileName(t *testing.T) string {
	t.Helper()
	profile, err := ProfileFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	return profile.Name
}

// startSandbox runs `deposit-sandbox --port 0 --in-memory --auth signature` (and extra) and
// returns its URL (the first stdout line). DEPOSIT_SANDBOX_COMMAND replaces the command.
func startSandbox(t *testing.T, extra ...string) string {
	t.Helper()
	command := strings.Fields(os.Getenv("DEPOSIT_SANDBOX_COMMAND"))
	if len(command) == 0 {
		bin, err := filepath.Abs("../../bin/deposit-sandbox.js")
		if err != nil {
			t.Fatal(err)
		}
		command = []string{"node", bin}
	}
	args := append(command[1:], "--port", "0", "--in-memory", "--auth", "signature")
	cmd := exec.Command(command[0], append(args, extra...)...)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "DEPOSIT_SANDBOX_") && !strings.HasPrefix(kv, "PORT=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("could not start the sandbox (%v); is node installed?", err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		_ = cmd.Wait()
	})
	lines := bufio.NewReader(stdout)
	first, err := lines.ReadString('\n')
	if err != nil {
		t.Fatalf("the sandbox printed no ready line: %v", err)
	}
	go func() { _, _ = lines.WriteTo(io.Discard) }() // keep the pipe drained
	m := regexp.MustCompile(`^deposit-sandbox listening on (\S+)`).FindStringSubmatch(first)
	if m == nil {
		t.Fatalf("unexpected first line %q", first)
	}
	return m[1]
}

// payOnPage does what the payer does: open payment_data.url, submit its form.
func payOnPage(t *testing.T, paymentURL string) *http.Response {
	t.Helper()
	page, err := http.Get(paymentURL)
	if err != nil {
		t.Fatal(err)
	}
	var html bytes.Buffer
	_, _ = html.ReadFrom(page.Body)
	page.Body.Close()
	m := regexp.MustCompile(`<form[^>]*action="([^"]+)"`).FindStringSubmatch(html.String())
	if m == nil {
		t.Fatalf("no form on the payment page:\n%s", html.String())
	}
	action, _ := url.Parse(paymentURL)
	action, _ = action.Parse(m[1])
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := noRedirect.PostForm(action.String(), url.Values{})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res
}

// waitFor blocks until cond holds for the ledger or 10 s pass.
func waitFor(t *testing.T, ledger *Ledger, tradeID string, cond func(balance int64, deliveries int) bool) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		balance, deliveries, changed := ledger.Snapshot(tradeID)
		if cond(balance, deliveries) {
			return
		}
		select {
		case <-changed:
		case <-deadline:
			t.Fatalf("timed out: balance %d, %d deliveries for %s", balance, deliveries, tradeID)
		}
	}
}

func TestSignaturesMatchTheDocumentedVectors(t *testing.T) {
	r := CreateRequest{Merchant: merchant, Order: "order-1001", AmountCents: 31250, AmountCurrency: "RUB", Type: "any_bank",
		Customer: "customer-42", CallbackURL: "https://shop.example/callbacks/deposit", ReturnURL: "https://shop.example/thanks"}
	if got := Sign(secret, []byte(r.StringToSign())); got != "e0868e2bda73093a3f6e8ce9e647abd07f3ad08c764fadac8c29670ac2034692" {
		t.Errorf("create signature %s", got)
	}
	bare := CreateRequest{Merchant: merchant, Order: "order-1002", AmountCents: 31250, AmountCurrency: "RUB", Type: "nspk"}
	if got, want := bare.StringToSign(), "31250::RUB::::::"+merchant+"::order-1002::::nspk"; got != want {
		t.Errorf("string to sign %q, want %q", got, want)
	}
	if got := Sign(secret, []byte(merchant+"::3f2a4b1c-5d6e-4f70-8a9b-0c1d2e3f4a5b")); got != "79023940317975039deef5b850b859979a9eea265611847f71d5236cbf9762a5" {
		t.Errorf("get signature %s", got)
	}
}

func TestCreatePayAndCreditOnce(t *testing.T) {
	sandbox := startSandbox(t, "--profile", profileName(t))
	ledger := NewLedger()
	receiver := httptest.NewServer(&Receiver{Secret: secret, Ledger: ledger})
	defer receiver.Close()
	client := &Client{BaseURL: sandbox, Merchant: merchant, Secret: secret, Token: token, HTTP: &http.Client{Timeout: 10 * time.Second}}
	ctx := context.Background()
	order := fmt.Sprintf("go-%d", time.Now().UnixNano())

	trade, err := client.Create(ctx, CreateRequest{Order: order, AmountCents: 31250, Type: "any_bank", Customer: "customer-42",
		CallbackURL: receiver.URL + "/callbacks/deposit", ReturnURL: "https://shop.example/thanks"})
	if err != nil {
		t.Fatal(err)
	}
	if trade.State != "created" || trade.Order != order {
		t.Fatalf("created %+v", trade)
	}
	again, err := client.Get(ctx, trade.ID)
	if err != nil || again.ID != trade.ID || again.PaymentData["number"] != trade.PaymentData["number"] {
		t.Fatalf("read back %+v, %v", again, err)
	}

	res := payOnPage(t, trade.PaymentData["url"])
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "https://shop.example/thanks" {
		t.Fatalf("paying answered %d, Location %q", res.StatusCode, res.Header.Get("Location"))
	}
	waitFor(t, ledger, trade.ID, func(balance int64, _ int) bool { return balance == 31250 })
	if now, err := client.Get(ctx, trade.ID); err != nil || now.State != "confirmed" {
		t.Fatalf("after paying: %+v, %v", now, err)
	}

	// The receiver acknowledged the callback as the profile asks (OK under md5-colon): delivered at once.
	var list struct {
		Callbacks []struct {
			ID       string            `json:"id"`
			Status   string            `json:"status"`
			Attempts []json.RawMessage `json:"attempts"`
		} `json:"callbacks"`
	}
	for i := 0; i < 100; i++ {
		answer, err := http.Get(sandbox + "/_sandbox/callbacks?trade=" + trade.ID)
		if err != nil {
			t.Fatal(err)
		}
		err = json.NewDecoder(answer.Body).Decode(&list)
		answer.Body.Close()
		if err != nil || len(list.Callbacks) == 0 {
			t.Fatalf("callbacks of the trade: %+v, %v", list, err)
		}
		if list.Callbacks[0].Status != "pending" {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if last := list.Callbacks[0]; last.Status != "delivered" || len(last.Attempts) != 1 {
		t.Fatalf("the callback is %s after %d attempts, want delivered at the first", last.Status, len(last.Attempts))
	}

	// The provider may deliver a callback again: replay it; the balance stays the same.
	replay, err := http.Post(sandbox+"/_sandbox/callbacks/"+list.Callbacks[0].ID+"/replay", "application/json", nil)
	if err != nil {
		t.Fatal(err)
	}
	replay.Body.Close()
	waitFor(t, ledger, trade.ID, func(_ int64, deliveries int) bool { return deliveries == 2 })
	if balance, _, _ := ledger.Snapshot(trade.ID); balance != 31250 {
		t.Fatalf("balance %d after a repeated callback, want 31250", balance)
	}
}

func TestAForgedCallbackIsRefused(t *testing.T) {
	ledger := NewLedger()
	receiver := httptest.NewServer(&Receiver{Secret: secret, Ledger: ledger})
	defer receiver.Close()
	body := []byte(`{"id":"forged","state":"confirmed","amount_cents":100}`)
	req, _ := http.NewRequest(http.MethodPost, receiver.URL, bytes.NewReader(body))
	req.Header.Set("X-Signature", Sign("wrong-secret", body))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if balance, deliveries, _ := ledger.Snapshot("forged"); res.StatusCode != http.StatusUnauthorized || balance != 0 || deliveries != 0 {
		t.Fatalf("forged callback: %d, balance %d, deliveries %d", res.StatusCode, balance, deliveries)
	}
}

func TestABadSignatureIsExplained(t *testing.T) {
	client := &Client{BaseURL: startSandbox(t, "--profile", profileName(t)), Merchant: merchant, Secret: "not-the-secret", Token: token}
	_, err := client.Create(context.Background(), CreateRequest{Order: fmt.Sprintf("go-%d", time.Now().UnixNano()), AmountCents: 5000, Type: "nspk"})
	var refused *Error
	if !errors.As(err, &refused) || refused.Status != http.StatusUnauthorized || !strings.Contains(strings.ToLower(refused.Body), "string to sign") {
		t.Fatalf("want a 401 that shows the string to sign, got %v", err)
	}
}

func TestALostCreateAnswerIsRecoveredWithTheSameOrder(t *testing.T) {
	client := &Client{BaseURL: startSandbox(t, "--profile", profileName(t)), Merchant: merchant, Secret: secret, Token: token}
	order := fmt.Sprintf("sbx-lost-go-%d", time.Now().UnixNano()) // saved, then no answer at all
	if _, err := client.Create(context.Background(), CreateRequest{Order: order, AmountCents: 31250, Type: "any_bank"}); err == nil {
		t.Fatal("want no answer for an sbx-lost- order")
	}
	// The retry gets duplicate_order, which names the trade under the sandbox profile: no new order is needed.
	trade, err := client.CreateOrRecover(context.Background(), CreateRequest{Order: order, AmountCents: 31250, Type: "any_bank"}, fmt.Sprintf("go-%d", time.Now().UnixNano()))
	if err != nil || trade.Order != order || trade.State != "created" {
		t.Fatalf("want the saved trade back, got %+v, %v", trade, err)
	}
}

func TestALostCreateAnswerIsRecoveredUnderTheStrictProfile(t *testing.T) {
	// A sandbox under the strict provider profile: every sandbox-only helper off, so the 422
	// duplicate_order names no trade and callbacks carry no X-Sandbox-* headers.
	sandbox := startSandbox(t, "--profile", "strict")
	strict := Builtin["strict"]
	ledger := NewLedger()
	receiver := httptest.NewServer(&Receiver{Secret: secret, Ledger: ledger, Profile: &strict})
	defer receiver.Close()
	client := &Client{BaseURL: sandbox, Merchant: merchant, Secret: secret, Profile: &strict}
	ctx := context.Background()
	order := fmt.Sprintf("sbx-lost-go-%d", time.Now().UnixNano())
	r := CreateRequest{Order: order, AmountCents: 31250, Type: "any_bank", CallbackURL: receiver.URL + "/callbacks/deposit"}
	if _, err := client.Create(ctx, r); err == nil {
		t.Fatal("want no answer for an sbx-lost- order")
	}
	_, err := client.Create(ctx, r) // saved, but the error does not say which trade
	var taken *Error
	if !errors.As(err, &taken) || taken.Status != http.StatusUnprocessableEntity || !strings.Contains(taken.Body, `"duplicate_order"`) || strings.Contains(taken.Body, "(id ") {
		t.Fatalf("want a 422 duplicate_order that names no trade, got %v", err)
	}

	newOrder := fmt.Sprintf("go-%d", time.Now().UnixNano())
	trade, err := client.CreateOrRecover(ctx, r, newOrder)
	if err != nil || trade.Order != newOrder || trade.State != "created" {
		t.Fatalf("want a trade under the new order, got %+v, %v", trade, err)
	}
	if again, err := client.Get(ctx, trade.ID); err != nil || again.Order != newOrder {
		t.Fatalf("read back %+v, %v", again, err)
	}

	// The first trade is never paid, so the provider ends it (here the sandbox's admin API plays
	// the provider): its callback carries its order and id, and the receiver learns the trade.
	answer, err := http.Get(sandbox + "/_sandbox/trades?order=" + url.QueryEscape(order))
	if err != nil {
		t.Fatal(err)
	}
	var listed struct {
		Trades []struct {
			ID string `json:"id"`
		} `json:"trades"`
	}
	err = json.NewDecoder(answer.Body).Decode(&listed)
	answer.Body.Close()
	if err != nil || len(listed.Trades) != 1 {
		t.Fatalf("trades of order %s: %+v, %v", order, listed, err)
	}
	lostID := listed.Trades[0].ID
	expire, err := http.Post(sandbox+"/_sandbox/trades/"+lostID+"/transition", "application/json", strings.NewReader(`{"state":"expired"}`))
	if err != nil {
		t.Fatal(err)
	}
	expire.Body.Close()
	waitFor(t, ledger, lostID, func(_ int64, deliveries int) bool { return deliveries == 1 })
	if b := ledger.Balance(order); b.State == nil || *b.State != "expired" || b.CreditedCents != 0 {
		t.Fatalf("the lost order in the ledger: %+v", b)
	}
}
