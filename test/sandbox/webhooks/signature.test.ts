import { describe, expect, it } from 'vitest';
import {
  parseSignatureHeader,
  signatureHeader,
  signPayload,
  verifySignature,
} from '../../../src/sandbox/webhooks/signature.js';

// Computed outside the code under test: printf '1700000000.{"a":1}' | openssl dgst -sha256 -hmac whsec_test
const knownBody = '{"a":1}';
const knownDigest = '38877139021993b830af32feea6e18a8da83eb2f6e49ee50bd9e4cf4ca4d3789';
const t = 1_700_000_000;

describe('webhook signature', () => {
  it('is the Stripe scheme: t=<seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">', () => {
    expect(signatureHeader).toBe('bulk-disputes-signature');
    expect(signPayload('whsec_test', t, knownBody)).toBe(`t=${t},v1=${knownDigest}`);
    expect(signPayload('whsec_test', t, Buffer.from(knownBody))).toBe(`t=${t},v1=${knownDigest}`);
  });

  it('accepts its own signature, from a string or the raw bytes', () => {
    const header = signPayload('whsec_test', t, knownBody);
    expect(verifySignature('whsec_test', header, knownBody, t)).toBe(true);
    expect(verifySignature('whsec_test', header, Buffer.from(knownBody), t + 10)).toBe(true);
  });

  it('rejects a wrong secret, a changed body, and a body serialised again', () => {
    const body = '{"event_id":"event_1","type":"case.created"}';
    const header = signPayload('whsec_test', t, body);
    expect(verifySignature('whsec_other', header, body, t)).toBe(false);
    expect(verifySignature('whsec_test', header, body.replace('created', 'won'), t)).toBe(false);
    expect(verifySignature('whsec_test', header, JSON.stringify(JSON.parse(body), null, 1), t)).toBe(false);
  });

  it('refuses a timestamp outside the tolerance, either way (a replay, or a clock far off)', () => {
    const header = signPayload('whsec_test', t, knownBody);
    expect(verifySignature('whsec_test', header, knownBody, t + 300)).toBe(true);
    expect(verifySignature('whsec_test', header, knownBody, t + 301)).toBe(false);
    expect(verifySignature('whsec_test', header, knownBody, t - 301)).toBe(false);
    expect(verifySignature('whsec_test', header, knownBody, t + 3600, 7200)).toBe(true);
  });

  it('refuses a replay whose timestamp was changed to a fresh one', () => {
    const [, signature] = signPayload('whsec_test', t, knownBody).split(',');
    const replayed = `t=${t + 3600},${signature ?? ''}`;
    expect(verifySignature('whsec_test', replayed, knownBody, t + 3600)).toBe(false);
  });

  it('accepts any of several v1 entries and ignores unknown keys', () => {
    const header = `t=${t},v1=${'0'.repeat(64)},v0=abc,v1=${knownDigest}`;
    expect(verifySignature('whsec_test', header, knownBody, t)).toBe(true);
    expect(parseSignatureHeader(header)).toEqual({ timestampSeconds: t, signatures: ['0'.repeat(64), knownDigest] });
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['no timestamp', `v1=${knownDigest}`],
    ['no signature', `t=${t}`],
    ['a timestamp that is not a number', `t=soon,v1=${knownDigest}`],
    ['a truncated signature', `t=${t},v1=${knownDigest.slice(0, 63)}`],
    ['a signature in upper case', `t=${t},v1=${knownDigest.toUpperCase()}`],
  ])('rejects a header that is %s', (_label, header) => {
    expect(verifySignature('whsec_test', header, knownBody, t)).toBe(false);
  });
});
