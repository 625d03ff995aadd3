/**
 * A Standard Webhooks signing secret, as our own webhooks hand it out (contract 12) and as a
 * payment provider's callbacks are checked with it (contract 15.1): `whsec_` and the base64 of the
 * key, or the base64 alone; the key is the decoded bytes (README: "keyed with the secret's base64
 * part"). Lenient decoding is what made a forgery possible: `!!!!!!!!!!!!!!!!` or `x` decodes to
 * no bytes at all, and an empty HMAC key lets anyone sign. So the base64 must be strict and the
 * key long enough, checked where a secret is loaded and again where it is used.
 */
export const SIGNING_SECRET_PREFIX = 'whsec_'

/** The shortest key a secret may decode to: 128 bits. */
export const MIN_SIGNING_KEY_BYTES = 16

/** The rule, as a refusal says it: it never repeats the secret. */
export const SIGNING_SECRET_RULE = `must be ${SIGNING_SECRET_PREFIX} followed by standard base64 (A-Z a-z 0-9 + /, padded with =), or that base64 alone, of a key of at least ${MIN_SIGNING_KEY_BYTES} bytes, e.g. ${SIGNING_SECRET_PREFIX} and the output of \`openssl rand -base64 32\``

const STRICT_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/

/** The base64 part of a secret that follows the rule, or null: the only text a key is decoded from. */
export function signingKeyBase64(secret: string): string | null {
  const base64 = secret.startsWith(SIGNING_SECRET_PREFIX) ? secret.slice(SIGNING_SECRET_PREFIX.length) : secret
  if (!STRICT_BASE64.test(base64)) return null
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0
  return (base64.length / 4) * 3 - padding >= MIN_SIGNING_KEY_BYTES ? base64 : null
}

/** Whether a secret follows the rule. */
export const isSigningSecret = (secret: string): boolean => signingKeyBase64(secret) !== null
