import { describe, expect, it } from 'vitest';
import { UpdateAccountBody } from './account.ts';
import { Email, Password } from './auth.ts';
import { isCommonPassword } from './common-passwords.ts';
import { Messages } from './messages.ts';
import { DemoRequestBody } from './platform.ts';
import { CreateProductFields } from './products.ts';

const messages = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }): Record<string, string> =>
  Object.fromEntries((r.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));

describe('upload fields say what is wrong, not only that something is', () => {
  it('names the limit and the length sent for an over-long case ID and symptoms, and the choices for gender', () => {
    const r = CreateProductFields.safeParse({ caseId: 'x'.repeat(101), gender: 'robot', symptoms: 's'.repeat(10_001) });
    expect(messages(r)).toEqual({
      caseId: 'At most 100 characters (this has 101).',
      gender: Messages.genderChoice,
      symptoms: 'At most 10,000 characters (this has 10,001).',
    });
  });

  it('keeps "This field is mandatory" for fields that are missing or blank', () => {
    const r = CreateProductFields.safeParse({ caseId: '  ', symptoms: '' });
    expect(messages(r)).toMatchObject({ caseId: Messages.mandatory, gender: Messages.mandatory, symptoms: Messages.mandatory });
  });
});

describe('e-mail addresses are held to the RFC 5321 limits', () => {
  it('refuses more than 64 characters before the @ and more than 254 in all, with the reason', () => {
    expect(messages(Email.safeParse(`${'a'.repeat(65)}@example.org`))).toEqual({ '': Messages.emailLocalTooLong });
    expect(messages(Email.safeParse(`${'a'.repeat(300)}@example.org`))).toMatchObject({ '': Messages.emailTooLong });
    expect(messages(Email.safeParse(`a@${'b'.repeat(250)}.org`))).toMatchObject({ '': Messages.emailTooLong });
  });

  it('accepts the longest addresses the limits allow, lower-cased', () => {
    const local = 'A'.repeat(64);
    expect(Email.parse(`${local}@example.org`)).toBe(`${local.toLowerCase()}@example.org`);
  });
});

describe('common passwords are refused locally, decorated or not', () => {
  it.each(['Passw0rd', 'P@ssw0rd!', 'Password1', 'Qwerty123', 'Summer2024', 'Galatasaray1905', 'Monkey12', 'Aaaaaaaa1', 'Letmein!23', 'PasswordPassword1'])(
    '%s is common',
    (p) => {
      expect(isCommonPassword(p)).toBe(true);
      expect(messages(Password.safeParse(p))).toEqual({ '': Messages.passwordCommon });
    },
  );

  it.each(['Tr0ub4dor&3x', 'Chromatin77', 'Helix-1953', 'Hx7!mqLp2', 'N3wPassword'])('%s is accepted', (p) => {
    expect(isCommonPassword(p)).toBe(false);
    expect(Password.safeParse(p).success).toBe(true);
  });

  it('caps the length so hashing cost stays bounded', () => {
    expect(messages(Password.safeParse(`Aa1${'x'.repeat(130)}`))).toEqual({ '': Messages.passwordMax });
  });
});

describe('a phone number is a phone number, in the account as in the demo request', () => {
  const account = { name: 'Ada', surname: 'Lovelace', birthDate: '1980-12-10' };
  it('refuses letters in the account phone number, naming the field', () => {
    expect(messages(UpdateAccountBody.safeParse({ ...account, phoneNumber: 'abc' }))).toEqual({ phoneNumber: Messages.invalidPhone });
    expect(messages(DemoRequestBody.safeParse({ email: 'a@b.org', name: 'A', surname: 'B', jobTitle: 'C', companyName: 'D', phone: 'abc', country: 'UK', yearlySampleCount: '1-50' }))).toEqual({ phone: Messages.invalidPhone });
  });
  it('accepts an international number, and no number (optional in the account)', () => {
    expect(UpdateAccountBody.parse({ ...account, phoneNumber: '+44 (20) 7946-0000' }).phoneNumber).toBe('+44 (20) 7946-0000');
    expect(UpdateAccountBody.parse({ ...account, phoneNumber: '' }).phoneNumber).toBeNull();
    expect(UpdateAccountBody.parse({ ...account }).phoneNumber).toBeUndefined();
  });
});
