import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

/**
 * A software WebAuthn authenticator for tests: one ES256 (P-256) key pair from node:crypto, answering registration
 * with attestation 'none' and sign-in with assertions, built byte by byte as the WebAuthn spec (§6.1 authenticator
 * data, §6.5 attestation objects, §5.8.1 client data) describes, and base64url-encoded as a browser's toJSON() does.
 */

type CborValue = number | string | Uint8Array | Map<number | string, CborValue>;

/** Just enough CBOR (RFC 8949) for attestation objects and COSE keys: integers, byte and text strings, maps. */
function cbor(value: CborValue): Buffer {
  const head = (major: number, length: number): Buffer => {
    if (length < 24) return Buffer.from([(major << 5) | length]);
    if (length < 0x100) return Buffer.from([(major << 5) | 24, length]);
    if (length < 0x10000) return Buffer.from([(major << 5) | 25, length >> 8, length & 0xff]);
    const out = Buffer.alloc(5);
    out[0] = (major << 5) | 26;
    out.writeUInt32BE(length, 1);
    return out;
  };
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), Buffer.from(value)]);
  const entries = [...value.entries()].flatMap(([key, item]) => [cbor(key), cbor(item)]);
  return Buffer.concat([head(5, value.size), ...entries]);
}

const b64url = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string): Buffer => createHash('sha256').update(data).digest();

const FLAG_USER_PRESENT = 0x01;
const FLAG_USER_VERIFIED = 0x04;
const FLAG_ATTESTED_DATA = 0x40;
const COSE_KTY_EC2 = 2;
const COSE_ALG_ES256 = -7;
const COSE_CRV_P256 = 1;

export interface CeremonyOverrides {
  /** The origin the browser reports in the client data; defaults to the authenticator's. */
  origin?: string;
  /** The challenge to sign instead of the one in the options. */
  challenge?: string;
}

export class SoftwareAuthenticator {
  readonly credentialId = randomBytes(16);
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  private counter = 0;

  constructor(private readonly origin: string) {
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = pair.privateKey;
    this.publicKey = pair.publicKey;
  }

  get id(): string {
    return b64url(this.credentialId);
  }

  private coseKey(): Buffer {
    const jwk = this.publicKey.export({ format: 'jwk' });
    if (jwk.x === undefined || jwk.y === undefined) throw new Error('the EC key has no coordinates');
    return cbor(
      new Map<number, CborValue>([
        [1, COSE_KTY_EC2],
        [3, COSE_ALG_ES256],
        [-1, COSE_CRV_P256],
        [-2, Buffer.from(jwk.x, 'base64url')],
        [-3, Buffer.from(jwk.y, 'base64url')],
      ]),
    );
  }

  private clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, overrides: CeremonyOverrides): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge: overrides.challenge ?? challenge, origin: overrides.origin ?? this.origin, crossOrigin: false }));
  }

  private authenticatorData(rpId: string, flags: number, attested?: Buffer): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(this.counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, ...(attested === undefined ? [] : [attested])]);
  }

  /** navigator.credentials.create() for PublicKeyCredentialCreationOptionsJSON, as its JSON result. */
  register(options: { challenge: string; rp: { id?: string } }, overrides: CeremonyOverrides = {}): Record<string, unknown> {
    const rpId = options.rp.id ?? new URL(this.origin).hostname;
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, this.credentialId, this.coseKey()]);
    const authData = this.authenticatorData(rpId, FLAG_USER_PRESENT | FLAG_USER_VERIFIED | FLAG_ATTESTED_DATA, attested);
    const attestationObject = cbor(new Map<string, CborValue>([['fmt', 'none'], ['attStmt', new Map()], ['authData', authData]]));
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: { clientDataJSON: b64url(this.clientData('webauthn.create', options.challenge, overrides)), attestationObject: b64url(attestationObject), transports: ['usb'] },
      clientExtensionResults: {},
    };
  }

  /** navigator.credentials.get() for PublicKeyCredentialRequestOptionsJSON; each assertion counts one use. */
  authenticate(options: { challenge: string; rpId?: string }, overrides: CeremonyOverrides = {}): Record<string, unknown> {
    this.counter += 1;
    const authData = this.authenticatorData(options.rpId ?? new URL(this.origin).hostname, FLAG_USER_PRESENT | FLAG_USER_VERIFIED);
    const clientData = this.clientData('webauthn.get', options.challenge, overrides);
    // ECDSA over authenticatorData || SHA-256(clientDataJSON), DER-encoded as WebAuthn expects for ES256.
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientData)]), this.privateKey);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: { clientDataJSON: b64url(clientData), authenticatorData: b64url(authData), signature: b64url(signature) },
      clientExtensionResults: {},
    };
  }

  /** Sets the signature counter, to replay an earlier use. */
  rewind(counter: number): void {
    this.counter = counter;
  }
}
