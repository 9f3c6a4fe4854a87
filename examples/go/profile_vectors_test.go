package deposit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// vectors are three requests signed under every built-in profile: a create with every field (a
// Cyrillic customer among them), a create with the optional fields left out, and a get.
var vectors = []struct {
	endpoint string
	values   map[string]string
}{
	{"create", map[string]string{"amount_cents": "31250", "amount_currency": "RUB", "callback_url": "https://shop.example/callbacks/deposit",
		"customer": "Иван Петров", "merchant": merchant, "order": "order-1001", "return_url": "https://shop.example/thanks", "type": "any_bank"}},
	{"create", map[string]string{"amount_cents": "100", "amount_currency": "RUB", "merchant": merchant, "order": "a::b:c", "type": "nspk"}},
	{"get", map[string]string{"merchant": merchant, "uuid": "3f2a4b1c-5d6e-4f70-8a9b-0c1d2e3f4a5b"}},
}

// signCase is one request of the vectors under one built-in profile.
type signCase struct {
	profile  string
	endpoint string
	values   map[string]string
}

// cliSignAll signs every case in one `deposit-sandbox sign --batch` process: one request per line
// in, its --json result on one line out, in order (DEPOSIT_SANDBOX_COMMAND replaces the command).
func cliSignAll(t *testing.T, cases []signCase) []map[string]interface{} {
	command := strings.Fields(os.Getenv("DEPOSIT_SANDBOX_COMMAND"))
	if len(command) == 0 {
		bin, err := filepath.Abs("../../bin/deposit-sandbox.js")
		if err != nil {
			t.Fatal(err)
		}
		command = []string{"node", bin}
	}
	var requests bytes.Buffer
	for _, c := range cases {
		line, err := json.Marshal(map[string]interface{}{"profile": c.profile, "endpoint": c.endpoint, "fields": c.values})
		if err != nil {
			t.Fatal(err)
		}
		requests.Write(append(line, '\n'))
	}
	cmd := exec.Command(command[0], append(command[1:], "sign", "--batch", "--secret", secret)...)
	cmd.Stdin = &requests
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "DEPOSIT_SANDBOX_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("deposit-sandbox sign --batch: %v\n%s%s", err, stderr.String(), out)
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) != len(cases) {
		t.Fatalf("deposit-sandbox sign --batch printed %d lines for %d requests:\n%s", len(lines), len(cases), out)
	}
	results := make([]map[string]interface{}, len(lines))
	for i, line := range lines {
		if err := json.Unmarshal([]byte(line), &results[i]); err != nil {
			t.Fatal(err)
		}
	}
	return results
}

// Each built-in profile's request signing, computed here with the standard library
// (profile_signing.go), matches the sandbox's byte for byte: the string to sign, the signature,
// and the headers it travels in, as `deposit-sandbox sign --batch` prints them (every case in one
// process; each line is what `sign --profile <p> --json` prints).
func TestProfileVectorsMatchTheSignCommand(t *testing.T) {
	var cases []signCase
	for name := range Builtin {
		for _, vector := range vectors {
			cases = append(cases, signCase{name, vector.endpoint, vector.values})
		}
	}
	signed := cliSignAll(t, cases)
	for i, c := range cases {
		c, cli := c, signed[i]
		t.Run(fmt.Sprintf("%s/%s-%d", c.profile, c.endpoint, i%len(vectors)), func(t *testing.T) {
			profile := Builtin[c.profile]
			var tokenHeader interface{}
			if profile.Header != "" {
				tokenHeader = TokenHeader[c.endpoint]
			}
			want := map[string]interface{}{
				"profile":        c.profile,
				"string_to_sign": profile.StringToSign(c.endpoint, c.values, "<secret>"),
				"signature":      profile.SignRequest(secret, c.endpoint, c.values),
				"header":         profile.SignatureHeader(c.endpoint),
				"token_header":   tokenHeader,
			}
			for key, value := range want {
				if cli[key] != value {
					t.Errorf("%s: the sign command says %q, this example %q", key, cli[key], value)
				}
			}
		})
	}
}
