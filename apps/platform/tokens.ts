/** Service identifiers of the composition roots (inversify). */
export const TYPES = {
  Config: Symbol.for('Config'),
  Database: Symbol.for('Database'),
  Store: Symbol.for('Store'),
  Clock: Symbol.for('Clock'),
  Presets: Symbol.for('Presets'),
  Resources: Symbol.for('Resources'),
  Validator: Symbol.for('Validator'),
  KeySecrets: Symbol.for('KeySecrets'),
  PlatformContext: Symbol.for('PlatformContext'),
  Routes: Symbol.for('Routes'),
  HttpApp: Symbol.for('HttpApp'),
  Logger: Symbol.for('Logger'),
  DisasterRecovery: Symbol.for('DisasterRecovery'),
} as const
