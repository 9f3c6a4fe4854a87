import { TRADE_STATES } from '../../trades/trade.js';

/**
 * GET /_sandbox/: the dashboard shell. It holds no data (it is served without the admin
 * token); the script fills it from the admin API.
 */
export function DashboardPage(props: { base: string; workspace: string }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>deposit-sandbox dashboard</title>
        <link rel="icon" href="data:," />
        <link rel="stylesheet" href="/_sandbox/assets/dashboard.css" />
        <script src="/_sandbox/assets/dashboard.js" defer></script>
        <script src="/_sandbox/assets/workspaces.js" defer></script>
      </head>
      <body data-base={props.base} data-workspace={props.workspace}>
        <section class="panel login" data-testid="login" hidden>
          <h1>Admin token</h1>
          <form data-testid="login-form">
            <label for="token">Token</label>
            <input id="token" type="password" autocomplete="off" data-testid="token-input" />
            <p class="error-text" data-testid="login-error" role="alert"></p>
            <button type="submit" class="primary" data-testid="token-submit">
              Continue
            </button>
            <p class="muted">Kept in this tab only (sessionStorage) and sent as Authorization: Bearer.</p>
          </form>
        </section>
        <div data-testid="app">
          <header class="top">
            <h1>deposit-sandbox</h1>
            <form class="workspace" data-testid="workspace-form">
              <input aria-label="Workspace" list="workspace-names" data-testid="workspace-input" />
              <datalist id="workspace-names"></datalist>
              <button type="submit" data-testid="workspace-open">
                Open
              </button>
            </form>
            <div class="clock" data-testid="clock">
              <span>
                Clock <b data-testid="clock-mode">…</b>
              </span>
              <span>
                Now <b data-testid="clock-now">…</b>
              </span>
              <span>
                Pending <b data-testid="clock-pending">…</b>
              </span>
              <span>
                Next due <b data-testid="clock-next">…</b>
              </span>
              <form data-testid="advance-form">
                <input aria-label="Advance the clock by" placeholder="10m" data-testid="advance-input" />
                <button type="submit" data-testid="advance">
                  Advance
                </button>
              </form>
            </div>
            <div class="header-actions">
              <button type="button" data-testid="signout" hidden>
                Forget token
              </button>
              <button type="button" class="danger" data-testid="reset">
                Reset
              </button>
            </div>
          </header>
          <div class="message" data-testid="message" role="status" hidden></div>
          <div class="layout">
            <section class="panel trades-panel">
              <h2>
                Trades <span class="muted" data-testid="trades-total"></span>
              </h2>
              <form class="filters" data-testid="filters">
                <input aria-label="Merchant id" placeholder="merchant id" data-testid="filter-merchant" />
                <select aria-label="State" data-testid="filter-state">
                  <option value="">any state</option>
                  {TRADE_STATES.map((state) => (
                    <option value={state}>{state}</option>
                  ))}
                </select>
                <input aria-label="Order" placeholder="order (exact)" data-testid="filter-order" />
              </form>
              <div class="scroll">
                <table>
                  <thead>
                    <tr>
                      <th class="wide-only">Created</th>
                      <th>Order</th>
                      <th class="wide-only">Merchant</th>
                      <th class="wide-only">Type</th>
                      <th>Amount</th>
                      <th>State</th>
                    </tr>
                  </thead>
                  <tbody data-testid="trades"></tbody>
                </table>
              </div>
            </section>
            <section class="panel detail-panel" data-testid="detail"></section>
            <section class="panel check-panel">
              <h2>Check a callback receiver</h2>
              <form class="check-form" data-testid="check-form">
                <input aria-label="Callback URL" placeholder="http://127.0.0.1:3000/deposit-callback" data-testid="check-url" />
                <input aria-label="Merchant id" placeholder="merchant id (default: the first in the fixtures)" data-testid="check-merchant" />
                <button type="submit" data-testid="check-run">
                  Check
                </button>
              </form>
              <p class="small muted">
                Sends a valid callback, the same one again, an older state after it, a wrong signature and no signature, and says what your receiver should change.
              </p>
              <div data-testid="check-result"></div>
            </section>
            <section class="panel scenarios-panel">
              <h2>Scenarios</h2>
              <div data-testid="scenarios">
                <p class="muted">…</p>
              </div>
            </section>
          </div>
        </div>
      </body>
    </html>
  );
}
