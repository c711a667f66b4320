import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { isIP } from 'node:net';

/** A serving certificate and its key, PEM. */
export interface ServingCertificate {
  cert: string;
  key: string;
}

// DER, the few types a certificate needs (X.690).
const length = (n: number): Buffer => {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let rest = n; rest > 0; rest >>= 8) bytes.unshift(rest & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
};
const tlv = (tag: number, ...content: Buffer[]): Buffer => {
  const body = Buffer.concat(content);
  return Buffer.concat([Buffer.from([tag]), length(body.length), body]);
};
const sequence = (...content: Buffer[]): Buffer => tlv(0x30, ...content);
const oid = (dotted: string): Buffer => {
  const [first, second, ...rest] = dotted.split('.').map(Number);
  const bytes = [first * 40 + second];
  for (const arc of rest) {
    const groups: number[] = [];
    for (let value = arc; ; value = Math.floor(value / 128)) {
      groups.unshift((value % 128) | (groups.length ? 0x80 : 0));
      if (value < 128) break;
    }
    bytes.push(...groups);
  }
  return tlv(0x06, Buffer.from(bytes));
};
/** UTCTime until 2049, GeneralizedTime from 2050 (RFC 5280 §4.1.2.5). */
const time = (date: Date): Buffer => {
  const digits = `${date.toISOString().slice(0, 19).replace(/[-T:]/g, '')}Z`;
  return date.getUTCFullYear() < 2050 ? tlv(0x17, Buffer.from(digits.slice(2))) : tlv(0x18, Buffer.from(digits));
};
const bitString = (bytes: Buffer): Buffer => tlv(0x03, Buffer.from([0]), bytes);
const octetString = (bytes: Buffer): Buffer => tlv(0x04, bytes);
const TRUE = tlv(0x01, Buffer.from([0xff]));

const ECDSA_WITH_SHA256 = sequence(oid('1.2.840.10045.4.3.2'));
const extension = (id: string, critical: boolean, value: Buffer): Buffer => sequence(oid(id), ...(critical ? [TRUE] : []), octetString(value));

/** `subjectAltName` entries: DNS names and IP addresses (v4, and v6 written in any form Node accepts). */
function altNames(names: readonly string[]): Buffer {
  const entries = names.map((name) => {
    if (isIP(name) === 4) return tlv(0x87, Buffer.from(name.split('.').map(Number)));
    if (isIP(name) === 6) return tlv(0x87, ipv6Bytes(name));
    return tlv(0x82, Buffer.from(name, 'ascii'));
  });
  return sequence(...entries);
}

function ipv6Bytes(address: string): Buffer {
  const [head, tail = ''] = address.split('::');
  const groups = (part: string) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const left = groups(head);
  const right = address.includes('::') ? groups(tail) : [];
  const all = [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
  return Buffer.from(all.flatMap((group) => [group >> 8, group & 0xff]));
}

/**
 * A certificate serial from random bytes: a positive DER INTEGER in its minimal form. The first byte is
 * kept in 0x40–0x7f: its top bit clear (positive) and never 0 (a leading zero byte before one below 0x80
 * is padding DER forbids, and OpenSSL refuses the certificate).
 */
export const positiveSerial = (random: Buffer): Buffer => {
  const serial = Buffer.from(random);
  serial[0] = (serial[0] & 0x3f) | 0x40;
  return serial;
};

const pem = (label: string, der: Buffer): string =>
  `-----BEGIN ${label}-----\n${der.toString('base64').replace(/.{64}/g, '$&\n').replace(/\n$/, '')}\n-----END ${label}-----\n`;

/**
 * A fresh self-signed certificate (ECDSA P-256, SHA-256) for `names` (IP addresses and DNS names, as
 * subjectAltName; no CN-only matching), valid from an hour ago for `days`. It is its own CA
 * (basicConstraints CA, keyCertSign), so a client trusts exactly it: a kubeconfig's
 * `certificate-authority-data`, Node's `ca`. Made in process, with no openssl on the machine.
 */
export function selfSignedCertificate(commonName: string, names: readonly string[], days = 3650): ServingCertificate {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const serial = positiveSerial(randomBytes(16));
  const subject = sequence(tlv(0x31, sequence(oid('2.5.4.3'), tlv(0x0c, Buffer.from(commonName, 'utf8')))));
  const now = Date.now();
  const extensions = [
    extension('2.5.29.19', true, sequence(TRUE)), // basicConstraints: CA
    extension('2.5.29.15', true, bitString(Buffer.from([0x84]))), // keyUsage: digitalSignature, keyCertSign
    extension('2.5.29.37', false, sequence(oid('1.3.6.1.5.5.7.3.1'))), // extKeyUsage: serverAuth
    extension('2.5.29.17', false, altNames(names)),
  ];
  const tbs = sequence(
    tlv(0xa0, tlv(0x02, Buffer.from([2]))), // v3
    tlv(0x02, serial),
    ECDSA_WITH_SHA256,
    subject,
    sequence(time(new Date(now - 3_600_000)), time(new Date(now + days * 86_400_000))),
    subject,
    publicKey.export({ type: 'spki', format: 'der' }),
    tlv(0xa3, sequence(...extensions)),
  );
  const certificate = sequence(tbs, ECDSA_WITH_SHA256, bitString(sign('sha256', tbs, privateKey)));
  return { cert: pem('CERTIFICATE', certificate), key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() };
}
