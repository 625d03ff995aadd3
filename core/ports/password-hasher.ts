/** One-way hashing of secrets a person chooses or is given (contact passwords, portal PINs). */
export interface PasswordHasher {
  hash(secret: string): Promise<string>
  verify(secret: string, hash: string): Promise<boolean>
}
