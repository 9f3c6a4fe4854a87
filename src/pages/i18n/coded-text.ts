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

/** The English line of `code` with `params` (SERVER_TEXTS_EN), with the code and parameters beside it. */
export function codedText(code: ServerTextCode, params: Params = {}): CodedText {
  return { text: english(code, params), code, params: { ...params } as TextParams };
}
