import { describe, expect, it } from 'vitest';
import { openApiDocument } from './openapi-document.js';
import { statesDocument } from './states-document.js';

// biome-ignore lint/suspicious/noExplicitAny: walks JSON of any shape
type Json = Record<string, any>;

describe('statesDocument', () => {
  const doc = openApiDocument() as Json;

  it('leaves the document as it is without intermediate states', () => {
    expect(statesDocument(doc, [])).toBe(doc);
  });

  it("lists a profile's intermediate states wherever the document lists the trade states", () => {
    const withStates = statesDocument(doc, ['processing', 'review']) as Json;
    const schemas = withStates['components']['schemas'] as Json;
    const all = ['created', 'ecom', 'processing', 'review', 'confirmed', 'canceled', 'expired'];
    expect(schemas['Trade']['properties']['state']).toEqual({ type: 'string', enum: all });
    expect(schemas['AdminTrade']['properties']['allowed']['items']['enum']).toEqual(all);
    expect(schemas['HistoryEntry']['properties']['to']['enum']).toEqual(all);
    expect(schemas['CallbackEvent']['properties']['state']['enum']).toEqual(all);
    expect(schemas['TransitionRequest']['properties']['state']['enum']).toEqual(['processing', 'review', 'confirmed', 'canceled', 'expired']);
    expect(withStates['paths']['/_sandbox/trades']['get']['parameters'][1]['schema']['enum']).toEqual([...all, '']);
    // The document it was made from is not changed.
    expect(doc['components']['schemas']['Trade']['properties']['state']['enum']).toEqual(['created', 'ecom', 'confirmed', 'canceled', 'expired']);
  });
});
