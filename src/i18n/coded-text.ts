import { z } from 'zod';
import { SERVER_TEXTS_EN, type ServerTextCode } from './server-texts-en.js';
import { type Params, translator } from './translator.js';

/** The parameters of a coded text: the raw values its template names (an order, a count, a list of types). */
export const textParamsSchema = z.record(z.string(), z.union([z.string(), z.number(), z.array(z.string())]));
export type TextParams = z.infer<typeof textParamsSchema>;

/** A line the server says: its English text, and the code and parameters a dashboard says it again with in its language. */
export interface CodedText {
  text: string;
  code: ServerTextCode;
  params: TextParams;
}

const english = translator('en', SERVER_TEXTS_EN);

const isCoded = (value: unknown): value is CodedText => typeof value === 'object' && value !== null && !Array.isArray(value) && 'code' in value;

/**
 * The English line of `code` with `params` (SERVER_TEXTS_EN), with the code and parameters
 * beside it. A parameter named in NESTED_PARAMS may be a coded line itself.
 */
export function codedText(code: ServerTextCode, params: Readonly<Record<string, Params[string] | CodedText>> = {}): CodedText {
  const flat: Record<string, TextParams[string]> = {};
  const inner: Record<string, Params[string]> = {};
  // The inner lines' parameters first, so the line's own win a clash.
  for (const value of Object.values(params)) if (isCoded(value)) Object.assign(flat, value.params);
  for (const [name, value] of Object.entries(params)) {
    if (isCoded(value)) {
      flat[name] = value.code;
      inner[name] = value.text;
    } else {
      flat[name] = value as TextParams[string];
    }
  }
  return { text: english(code, { ...flat, ...inner }), code, params: flat };
}
