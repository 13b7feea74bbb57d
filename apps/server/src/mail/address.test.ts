import { describe, expect, it } from 'vitest';
import { addressOf } from './address.ts';

describe('addressOf', () => {
  it('extracts the address of a named mailbox and keeps a bare one', () => {
    expect(addressOf('RareLens <no-reply@rarelens.local>')).toBe('no-reply@rarelens.local');
    expect(addressOf(' sales@rarelens.example ')).toBe('sales@rarelens.example');
  });
});
