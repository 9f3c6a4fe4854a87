/**
 * The result icons as inline SVG (no emoji: a browser without an emoji font, as in CI,
 * would draw an empty box). Decorative: the heading next to them says the same.
 */
const PATHS = {
  waiting: (
    <>
      <circle cx="24" cy="24" r="20" fill="none" stroke="currentColor" stroke-width="3" />
      <path d="M24 12v13l8 5" fill="none" stroke="currentColor" stroke-width="3" stroke-linecap="round" stroke-linejoin="round" />
    </>
  ),
  confirmed: (
    <>
      <circle cx="24" cy="24" r="20" fill="currentColor" />
      <path d="M14 24.5l7 7 13-14" fill="none" stroke="#fff" stroke-width="4" stroke-linecap="round" stroke-linejoin="round" />
    </>
  ),
  canceled: (
    <>
      <circle cx="24" cy="24" r="20" fill="currentColor" />
      <path d="M16.5 16.5l15 15M31.5 16.5l-15 15" fill="none" stroke="#fff" stroke-width="4" stroke-linecap="round" />
    </>
  ),
  expired: (
    <>
      <path
        d="M14 6h20M14 42h20M16 6c0 10 16 12 16 18s-16 8-16 18M32 6c0 10-16 12-16 18s16 8 16 18"
        fill="none"
        stroke="currentColor"
        stroke-width="3"
        stroke-linecap="round"
        stroke-linejoin="round"
      />
    </>
  ),
} as const;

export type IconName = keyof typeof PATHS;

export function Icon(props: { name: IconName }) {
  return (
    <svg class={`icon ${props.name}`} data-testid="result-icon" data-icon={props.name} viewBox="0 0 48 48" width="48" height="48" aria-hidden="true" focusable="false">
      {PATHS[props.name]}
    </svg>
  );
}
