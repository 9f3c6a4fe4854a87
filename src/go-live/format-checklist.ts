import type { GoLiveChecklist, GoLiveStatus } from './go-live-schema.js';

const WORD: Record<GoLiveStatus, string> = { met: 'met', not_met: 'not met', wrong: 'WRONG' };

/**
 * The checklist as the CLI prints it: one line per row, its status first; under a wrong row
 * what showed it wrong, under a row not met the one way to exercise it; the counts last.
 */
export function formatChecklist(checklist: GoLiveChecklist, sandbox: string): string {
  const who = checklist.name !== undefined ? `${checklist.name} (${checklist.merchant})` : checklist.merchant;
  let text = `Go-live checklist of ${who} at ${sandbox}\n`;
  const receiver = checklist.receiver;
  text += receiver
    ? `Receiver ${receiver.url} checked, fuzzed with seed ${receiver.seed} (${receiver.runs} schedules)${receiver.probe !== undefined ? `, balance probe ${receiver.probe}` : ', no balance probe'}.\n`
    : 'No receiver checked (give --receiver <url>).\n';
  if (checklist.other_merchants.length > 0) text += `Other merchants with coverage: ${checklist.other_merchants.join(', ')} (--merchant <id>).\n`;
  text += '\n';
  const width = Math.max(...checklist.rows.map((row) => row.id.length));
  for (const row of checklist.rows) {
    text += `  ${WORD[row.status].padEnd(8)} ${row.id.padEnd(width)}  ${row.title}\n`;
    if (row.status === 'wrong') for (const evidence of row.evidence.filter((e) => e.status === 'wrong')) text += `           ${evidence.source}: ${evidence.detail}\n`;
    if (row.exercise !== undefined) text += `           to exercise it: ${row.exercise}\n`;
  }
  const { met, not_met, wrong } = checklist.counts;
  text += `\n${met} met, ${not_met} not met, ${wrong} wrong: ${checklist.ready ? 'ready to go live against the provider.' : 'not ready yet.'}\n`;
  return text;
}
