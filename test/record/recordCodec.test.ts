import { describe, expect, test } from 'vitest';
import { decodeDefinitions, decodeRankPart, decodeRecord, encodeRecord } from '../../dist/src/record/recordCodec.js';
import { textRecord } from '../support/fixtureTags.js';

const text = 'class HTTPAdapter:\n    def send(self, request):\n        return send_request(request)\n';
const record = textRecord('requests/adapters.py', 'python', text, 1);

/** A value as LMDB hands it out: a Buffer over a bigger buffer, at an offset no 32-bit integer is aligned to. */
function asStored(value: Uint8Array): Buffer {
  const page = Buffer.alloc(value.length + 11);
  page.set(value, 7);
  return page.subarray(7, 7 + value.length);
}

describe('a stored record', () => {
  test('decodes to the record it was made from, its terms included, wherever its bytes lie', () => {
    expect(record.terms.hashes.length).toBeGreaterThan(5);
    const value = asStored(encodeRecord(record));
    expect(decodeRecord(value)).toEqual(record);
    expect(decodeRankPart(value).terms).toEqual(record.terms);
  });

  test('gives its definitions alone, even when a signature spells the key that follows them', () => {
    const tricky = { ...record.definitions[0]!, signature: 'x = \'],"referenceCounts":{\'' };
    const withTricky = { ...record, definitions: [tricky, ...record.definitions.slice(1)] };
    expect(record.definitions.length).toBeGreaterThan(1);
    expect(decodeDefinitions(asStored(encodeRecord(record)))).toEqual(record.definitions);
    expect(decodeDefinitions(asStored(encodeRecord(withTricky)))).toEqual(withTricky.definitions);
  });

  test('cut short, is refused rather than read from whatever follows it', () => {
    const value = asStored(encodeRecord(record));
    expect(() => decodeRankPart(value.subarray(0, 70))).toThrow(RangeError);
  });
});
