// The one table the bench prints (GitHub Markdown, columns padded for a terminal).

export function formatTable(header, rows) {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => String(row[i] ?? '').length)));
  const line = (cells) => `| ${cells.map((cell, i) => String(cell ?? '').padEnd(widths[i])).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

export const int = (n) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '-');
export const fixed = (n, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : '-');
export const ms = (n) => (Number.isFinite(n) ? (n >= 100 ? `${Math.round(n)} ms` : `${n.toFixed(1)} ms`) : '-');
export const mb = (n) => (Number.isFinite(n) ? `${Math.round(n)} MB` : '-');
export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? Number.NaN : sorted[Math.floor((sorted.length - 1) / 2)];
};
