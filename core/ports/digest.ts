/** A stable hash of text (record fingerprints). */
export interface Digest {
  sha256(text: string): string
}
