package deposit

import (
	"crypto/hmac"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
)

// Ledger is the merchant's balance; each trade is credited at most once.
type Ledger struct {
	mu         sync.Mutex
	balance    int64
	credited   map[string]bool
	deliveries map[string]int
	changed    chan struct{}
}

func NewLedger() *Ledger {
	return &Ledger{credited: map[string]bool{}, deliveries: map[string]int{}, changed: make(chan struct{})}
}

func (l *Ledger) record(t Trade) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.deliveries[t.ID]++
	if t.State == "confirmed" && !l.credited[t.ID] {
		l.credited[t.ID] = true
		l.balance += t.AmountCents
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

// Receiver is the callback endpoint: it verifies X-Signature over the raw body in constant
// time, answers 401 to anything unsigned, and records the trade in the ledger.
type Receiver struct {
	Secret string
	Ledger *Ledger
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
	expected := Sign(h.Secret, raw)
	given := strings.ToLower(r.Header.Get("X-Signature"))
	if !hmac.Equal([]byte(expected), []byte(given)) {
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	var trade Trade
	if err := json.Unmarshal(raw, &trade); err != nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	h.Ledger.record(trade)
	w.WriteHeader(http.StatusNoContent) // a 2xx also for repeats: they are delivered, just not credited
}
