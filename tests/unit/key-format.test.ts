import { describe, expect, it } from 'vitest';
import {
  API_KEY_LENGTH,
  API_KEY_PATTERN,
  API_KEY_PREFIX,
  keyShape,
  newApiKey,
} from '../../src/server/services/key-format.ts';

describe('the API key format', () => {
  it('issues keys with the prefix, a fixed length and a checksum that matches', () => {
    const keys = Array.from({ length: 200 }, () => newApiKey());
    for (const key of keys) {
      expect(key.startsWith(API_KEY_PREFIX)).toBe(true);
      expect(key).toHaveLength(API_KEY_LENGTH);
      expect(keyShape(key)).toBe('valid');
    }
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('lets a secret scanner find a key in pasted text', () => {
    const key = newApiKey();
    expect(API_KEY_PATTERN.exec(`export TICKERLAKE_KEY="${key}" # prod`)?.[0]).toBe(key);
  });

  it('knows a mistyped key by its checksum: one changed, dropped or swapped character', () => {
    const key = newApiKey();
    const at = API_KEY_PREFIX.length + 5;
    const changed = `${key.slice(0, at)}${key[at] === 'a' ? 'b' : 'a'}${key.slice(at + 1)}`;
    const swapped = `${key.slice(0, at)}${key[at + 1] ?? ''}${key[at] ?? ''}${key.slice(at + 2)}`;
    expect(keyShape(changed)).toBe('mistyped');
    expect(keyShape(key.slice(0, -1))).toBe('mistyped');
    if (swapped !== key) expect(keyShape(swapped)).toBe('mistyped');
    expect(keyShape(`${key.slice(0, -1)}!`)).toBe('mistyped');
  });

  it('leaves keys of the earlier shape to the database', () => {
    expect(keyShape('Q2hhbmdlIG1lIHRvIGEgcmVhbCBrZXkgcGxlYXNlIQ')).toBe('legacy');
  });
});
