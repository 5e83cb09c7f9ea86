import { describe, expect, it } from 'vitest';
import { USERNAME_RULE_MESSAGE, usernameProblem } from '../../src/lib/form-rules.ts';
import { describeUserAgent } from '../../src/lib/stores/settings.ts';

describe('the settings page’s words for a sign-in', () => {
  it.each([
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      'Chrome on macOS',
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
      'Edge on Windows',
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
      'Safari on iOS',
    ],
    ['Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0', 'Firefox on Linux'],
    ['curl/8.5.0', 'curl'],
    ['', 'Unknown browser'],
    ['SomethingElse/1.0', 'Another app'],
  ])('names %s as “%s”', (agent, words) => {
    expect(describeUserAgent(agent)).toBe(words);
  });
});

describe('the username rule the settings form and the server share', () => {
  it('accepts letters, digits, dots, dashes and underscores starting with a letter or digit', () => {
    expect(usernameProblem('ada.lovelace_1-x')).toBeUndefined();
    expect(usernameProblem('  padded  ')).toBeUndefined();
  });

  it.each(['', ' ', '.dot-first', 'has space', 'at@sign', 'x'.repeat(31)])('refuses “%s”', (name) => {
    expect(usernameProblem(name)).toBe(USERNAME_RULE_MESSAGE);
  });
});
