import { describe, expect, it } from 'vitest';
import { canonicalQuery, EMPTY_SHA256, parseAuthorization, signRequest, toAmzDate, uriEncode } from './sigv4.ts';

describe('SigV4 signer', () => {
  it('reproduces the AWS documentation example for S3 GET Object', () => {
    // AWS S3 API reference, "Signature Calculations for the Authorization Header", example GET Object.
    const res = signRequest(
      {
        method: 'GET',
        path: '/test.txt',
        headers: {
          Host: 'examplebucket.s3.amazonaws.com',
          Range: 'bytes=0-9',
          'x-amz-content-sha256': EMPTY_SHA256,
          'x-amz-date': '20130524T000000Z',
        },
        payloadHash: EMPTY_SHA256,
      },
      { region: 'us-east-1', service: 's3', amzDate: '20130524T000000Z' },
      { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' },
    );
    expect(res.signature).toBe('f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41');
    expect(res.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    );
    const parsed = parseAuthorization(res.authorization);
    expect(parsed?.signedHeaders).toEqual(['host', 'range', 'x-amz-content-sha256', 'x-amz-date']);
  });

  it('encodes and sorts query parameters and formats dates', () => {
    expect(canonicalQuery({ prefix: 'a b/c', 'list-type': '2' })).toBe('list-type=2&prefix=a%20b%2Fc');
    expect(uriEncode('a/b c~', false)).toBe('a/b%20c~');
    expect(toAmzDate(new Date(Date.UTC(2013, 4, 24, 0, 0, 0)))).toBe('20130524T000000Z');
  });
});
