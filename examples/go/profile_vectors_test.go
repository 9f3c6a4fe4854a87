package deposit

import (
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

// cliSign runs `deposit-sandbox sign --profile <name> --json` (DEPOSIT_SANDBOX_COMMAND replaces the command).
func cliSign(t *testing.T, name, endpoint string, values map[string]string) map[string]interface{} {
	command := strings.Fields(os.Getenv("DEPOSIT_SANDBOX_COMMAND"))
	if len(command) == 0 {
		bin, err := filepath.Abs("../../bin/deposit-sandbox.js")
		if err != nil {
			t.Fatal(err)
		}
		command = []string{"node", bin}
	}
	args := append(command[1:], "sign", "--profile", name, "--secret", secret, "--endpoint", endpoint, "--json")
	for key, value := range values {
		args = append(args, key+"="+value)
	}
	cmd := exec.Command(command[0], args...)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "DEPOSIT_SANDBOX_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("deposit-sandbox %s: %v", strings.Join(args, " "), err)
	}
	var signed map[string]interface{}
	if err := json.Unmarshal(out, &signed); err != nil {
		t.Fatal(err)
	}
	return signed
}

// Each built-in profile's request signing, computed here with the standard library
// (profile_signing.go), matches `deposit-sandbox sign --profile <p> --json` byte for byte: the
// string to sign, the signature, and the headers it travels in.
func TestProfileVectorsMatchTheSignCommand(t *testing.T) {
	for name, profile := range Builtin {
		for i, vector := range vectors {
			name, profile, vector := name, profile, vector
			t.Run(fmt.Sprintf("%s/%s-%d", name, vector.endpoint, i), func(t *testing.T) {
				t.Parallel()
				cli := cliSign(t, name, vector.endpoint, vector.values)
				var tokenHeader interface{}
				if profile.Header != "" {
					tokenHeader = TokenHeader[vector.endpoint]
				}
				want := map[string]interface{}{
					"profile":        name,
					"string_to_sign": profile.StringToSign(vector.endpoint, vector.values, "<secret>"),
					"signature":      profile.SignRequest(secret, vector.endpoint, vector.values),
					"header":         profile.SignatureHeader(vector.endpoint),
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
}
