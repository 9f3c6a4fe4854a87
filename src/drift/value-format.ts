import { isLuhnValid } from '../trades/requisites.js';

export type JsonType = 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null';

/**
 * The JSON type of a parsed value.
 *
 * @example
 * jsonType([1]) // 'array'
 */
export function jsonType(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'object') return 'object';
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'boolean';
  return 'string';
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PHONE = /^\+7\d{10}$/;

/** Key paths whose numbers are decimals by the document ("rate: number (decimal)"): 92 and 92.5 are one format there. */
const ANY_NUMBER = /(^|\.)rate$/;

/**
 * The format of a value that changes on every call, so that two answers are compared by it and
 * not by the value: for strings `uuid`, `card` (16 digits passing Luhn), `phone` (`+7` and 10
 * digits), `url` (absolute http or https), `digits` (other digits only), `empty` or `text`; for
 * numbers `integer` or `decimal` (`number` at a `rate`); otherwise the JSON type.
 *
 * @example
 * valueFormat('4242 4242 4242 4242', 'payment_data.number') // 'text'
 * valueFormat('4242424242424242', 'payment_data.number') // 'card'
 */
export function valueFormat(value: unknown, path: string): string {
  if (typeof value === 'number') return ANY_NUMBER.test(path) ? 'number' : Number.isInteger(value) ? 'integer' : 'decimal';
  if (typeof value !== 'string') return jsonType(value);
  if (value === '') return 'empty';
  if (UUID.test(value)) return 'uuid';
  if (/^\d{16}$/.test(value) && isLuhnValid(value)) return 'card';
  if (PHONE.test(value)) return 'phone';
  if (/^\d+$/.test(value)) return 'digits';
  if (isAbsoluteHttpUrl(value)) return 'url';
  return 'text';
}

function isAbsoluteHttpUrl(value: string): boolean {
  if (!/^https?:\/\/[^\s]+$/i.test(value)) return false;
  try {
    return new URL(value).hostname !== '';
  } catch {
    return false;
  }
}
