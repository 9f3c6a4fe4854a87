import type { Child } from 'hono/jsx';

/** The HTML document around a payment-side page: viewport meta, the page's own stylesheet and script. */
export function Layout(props: { title: string; children: Child }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{props.title}</title>
        <link rel="icon" href="data:," />
        <link rel="stylesheet" href="/assets/pay.css" />
        <script src="/assets/pay.js" defer></script>
      </head>
      <body>
        <div class="sandbox-banner">
          <strong>Sandbox</strong> test payment page of deposit-sandbox. No real money moves.
        </div>
        <main>{props.children}</main>
      </body>
    </html>
  );
}
