import { z } from 'zod';
import { callbackBehaviourSchema } from '../callbacks/behaviour.js';
import { DURATION_HINT } from '../clock/duration.js';
import { STATE_NAME, TRADE_STATES } from '../trades/trade.js';
import { scenarioFileSchema, timelineStepSchema } from './scenario.js';

/** Editor hints for the fields of the shared callbacks block (its schema lives with the callbacks). */
const CALLBACK_FIELDS: Record<string, string> = {
  fail_first: 'The first N attempts (0-20) of each callback are not sent and count as failed, so the retries follow.',
  delay: `Wait this long (sandbox clock) before the first attempt; ${DURATION_HINT}.`,
  duplicate: 'After a delivery, send the same event (same id, body and signature) once more.',
  bad_signature: 'Before the real callback, send a copy whose X-Signature is wrong; a receiver must refuse it.',
};

/**
 * The JSON Schema of a scenario file, for editors (`# yaml-language-server: $schema=./schema.json`).
 * Written to scenarios/schema.json by `npm run docs`; a test fails when the file is stale.
 */
export function scenarioJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(scenarioFileSchema, {
    io: 'input',
    target: 'draft-7',
    unrepresentable: 'any',
    override: (ctx) => {
      if (ctx.zodSchema === timelineStepSchema.shape.state) {
        // The sandbox checks a step against the provider profile; an editor offers the sandbox's states and accepts a profile's own.
        for (const key of Object.keys(ctx.jsonSchema)) delete (ctx.jsonSchema as Record<string, unknown>)[key];
        Object.assign(ctx.jsonSchema, {
          type: 'string',
          anyOf: [{ enum: [...TRADE_STATES] }, { pattern: STATE_NAME.source, description: 'An intermediate state of the provider profile (states.intermediate), e.g. processing.' }],
          description: 'State the trade moves to.',
        });
        return;
      }
      if (ctx.zodSchema !== callbackBehaviourSchema) return;
      const properties = ctx.jsonSchema.properties ?? {};
      for (const [key, description] of Object.entries(CALLBACK_FIELDS)) {
        const property = properties[key];
        if (property && typeof property === 'object') property.description = description;
      }
    },
  }) as Record<string, unknown>;
}

/** The text of scenarios/schema.json. */
export function renderSchemaJson(): string {
  return `${JSON.stringify(scenarioJsonSchema(), null, 2)}\n`;
}
