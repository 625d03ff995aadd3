import type { EnvConfig } from './config.js'
import type { Logger } from './logger.js'
import { openPlatform, type Platform } from './platform.js'

/** Opens the platform the server and the worker run: every setting from the environment. */
export async function openFromEnv(config: EnvConfig, logger: Logger): Promise<Platform> {
  const platform = await openPlatform({
    databaseUrl: config.databaseUrl,
    presets: config.presets,
    logger,
    drPassword: config.drPassword,
    drDir: config.drDir,
    drRetentionDays: config.drRetentionDays,
    rateLimit: config.rateLimit,
    corsOrigins: config.corsOrigins,
    requestTimeoutMs: config.requestTimeoutMs,
    bodyTimeoutMs: config.connections.bodyTimeoutMs,
    leaseMs: config.leaseMs,
    keyCacheMs: config.keyCacheMs,
    metricsPublic: config.metricsPublic,
    logRequests: config.logRequests,
    allowPrivateWebhooks: config.allowPrivateWebhooks,
    webhookTimeoutMs: config.webhookTimeoutMs,
    smtpUrl: config.smtpUrl,
    mailDir: config.mailDir,
    publicUrl: config.publicUrl,
    trustProxy: config.trustProxy,
  })
  // A process killed mid-archive left its plain table copies (secrets among them): gone now,
  // not when the archive job's lease lapses and its schedule comes round.
  const leftovers = (await platform.context.disasterRecovery?.archiver.removeLeftovers('of-dead-processes')) ?? 0
  if (leftovers > 0) logger.warn({ leftovers }, 'dr-leftovers-removed')
  if (!config.drPassword) {
    logger.info({ reason: 'BILLING_DR_PASSWORD is not set: disaster-recovery archives are not generated' }, 'archives-disabled')
  }
  logger.info({ mail: platform.mailer.description }, 'invoice-mail')
  return platform
}
