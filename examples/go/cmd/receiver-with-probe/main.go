// The callback receiver with a balance probe reading the same ledger, for the callback fuzzer:
// POST /callback takes callbacks, GET /probe?order=<order> answers the shop's state and the
// kopecks credited. net/http serves each request on its own goroutine, so overlapping
// deliveries really run at the same time. Run it from examples/go, then fuzz it:
//
//	PORT=3001 go run ./cmd/receiver-with-probe
//	npx deposit-sandbox check-callback http://127.0.0.1:3001/callback --probe http://127.0.0.1:3001/probe --runs 50 --seed 1
package main

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"

	deposit "example.com/deposit"
)

func main() {
	secret := os.Getenv("MERCHANT_SECRET")
	if secret == "" {
		secret = "sandbox-secret-demo"
	}
	ledger := deposit.NewLedger()
	mux := http.NewServeMux()
	mux.Handle("/callback", &deposit.Receiver{Secret: secret, Ledger: ledger})
	mux.HandleFunc("/probe", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(ledger.Balance(r.URL.Query().Get("order")))
	})
	port := os.Getenv("PORT")
	if port == "" {
		port = "3001"
	}
	listener, err := net.Listen("tcp", "127.0.0.1:"+port)
	if err != nil {
		panic(err)
	}
	fmt.Printf("receiver on http://%s/callback, probe on http://%s/probe\n", listener.Addr(), listener.Addr())
	panic(http.Serve(listener, mux))
}
