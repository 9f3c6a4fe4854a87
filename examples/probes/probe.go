// The balance probe in Go (net/http): GET /probe?order=<order> answers the shop's state and
// the kopecks credited for that order. Run: PORT=3001 go run examples/probes/probe.go
package main

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
)

type balance struct {
	State         *string `json:"state"` // null for an order the shop never saw
	CreditedCents int64   `json:"credited_cents"`
}

func main() {
	confirmed := "confirmed"
	orders := map[string]balance{"order-1001": {State: &confirmed, CreditedCents: 31250}} // your shop's data

	http.HandleFunc("/probe", func(w http.ResponseWriter, r *http.Request) {
		row := orders[r.URL.Query().Get("order")] // the zero value: state null, 0 credited
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(row)
	})
	port := os.Getenv("PORT")
	if port == "" {
		port = "3001"
	}
	listener, err := net.Listen("tcp", "127.0.0.1:"+port)
	if err != nil {
		panic(err)
	}
	fmt.Printf("probe on http://%s/probe\n", listener.Addr())
	panic(http.Serve(listener, nil))
}
