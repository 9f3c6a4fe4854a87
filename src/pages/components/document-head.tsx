/**
 * The `<head>` every HTML page of the sandbox starts with: UTF-8, a phone's viewport, kept out of
 * search indexes, no favicon request; then the page's own stylesheets and deferred scripts.
 */
export function DocumentHead(props: { title: string; stylesheets: readonly string[]; scripts: readonly string[] }) {
  return (
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <meta name="robots" content="noindex" />
      <title>{props.title}</title>
      <link rel="icon" href="data:," />
      {props.stylesheets.map((href) => (
        <link rel="stylesheet" href={href} />
      ))}
      {props.scripts.map((src) => (
        <script src={src} defer></script>
      ))}
    </head>
  );
}
