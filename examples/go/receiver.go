package deposit

import (
	"encoding/json"
	"io"
	"net/http"
	"sync"
)

// Ledger is the merchant's balance; each trade is credited at most once.
type Ledger struct {
	mu         sync.Mutex
	balance    int64
	credited   map[string]bool
	deliveries map[string]int
	orders     map[string]*Balance
	changed    chan struct{}
}

// Balance is the shop's state and the kopecks credited for one order: what a balance probe answers.
type Balance struct {
	State         *string `json:"state"` // null for an order the shop never saw
	CreditedCents int64   `json:"credited_cents"`
}

func NewLedger() *Ledger {
	return &Ledger{credited: map[string]bool{}, deliveries: map[string]int{}, orders: map[string]*Balance{}, changed: make(chan struct{})}
}

func (l *Ledger) record(t Trade) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.deliveries[t.ID]++
	order := l.orders[t.Order]
	if order == nil {
		order = &Balance{}
		l.orders[t.Order] = order
	}
	state := t.State
	order.State = &state
	// The check and the write happen under one lock, so two overlapping deliveries cannot
	// both see "not credited yet".
	if t.State == "confirmed" && !l.credited[t.ID] {
		l.credited[t.ID] = true
		l.balance += t.AmountCents
		order.CreditedCents += t.AmountCents
	}
	close(l.changed) // wake everyone waiting for a change
	l.changed = make(chan struct{})
}

// Snapshot returns the balance and how many signed callbacks arrived for a trade.
func (l *Ledger) Snapshot(tradeID string) (balance int64, deliveries int, changed <-chan struct{}) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.balance, l.deliveries[tradeID], l.changed
}

// Balance returns the state and the kopecks credited for an order (state nil when never seen).
func (l *Ledger) Balance(order string) Balance {
	l.mu.Lock()
	defer l.mu.Unlock()
	if b := l.orders[order]; b != nil {
		return *b
	}
	return Balance{}
}

// Receiver is the callback endpoint: it verifies the signature over the raw body in constant
// time, answers 401 to anything unsigned, and records the trade in the ledger. Profile says how
// callbacks are signed and acknowledged (nil: the built-in DEPOSIT_SANDBOX_PROFILE names, else
// sandbox's: X-Signature, hex HMAC-SHA256 of the raw body, and any 2xx).
type Receiver struct {
	Secret  string
	Ledger  *Ledger
	Profile *Profile
}

func (h *Receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	raw, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	profile, err := ProfileFromEnv()
	if h.Profile != nil {
		profile, err = *h.Profile, nil
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	if !profile.VerifyCallback(h.Secret, r.Header, raw) {
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	var trade Trade
	if err := json.Unmarshal(raw, &trade); err != nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	h.Ledger.record(trade)
	// Acknowledged also for repeats: they are delivered, just not credited.
	status, answer := profile.Acknowledgement()
	w.WriteHeader(status)
	_, _ = w.Write(answer)
}
