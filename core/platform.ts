import type { InputValidator } from './input/validate.js'
import type { Presets } from './presets/presets.js'
import type { Clock } from './ports/clock.js'
import type { ResourceWrite, Store } from './ports/store.js'
import type { PasswordHasher } from './ports/password-hasher.js'
import type { PaymentLinkProvider } from './ports/payment-link-provider.js'
import type { Random } from './ports/random.js'
import type { Digest } from './ports/digest.js'
import type { Resource, ResourceName } from './fields/resource.js'
import type { DisasterRecovery } from './disaster-recovery/archive-files.js'
import type { WebhookTargets } from './ports/webhook-targets.js'

/** Everything the use cases need, assembled by a composition root. */
export interface PlatformContext {
  readonly store: Store
  readonly validator: InputValidator
  readonly clock: Clock
  readonly presets: Presets
  readonly resources: ReadonlyMap<ResourceName, Resource>
  readonly passwords: PasswordHasher
  readonly random: Random
  readonly paymentLinks: PaymentLinkProvider
  readonly digest: Digest
  /** Disaster-recovery archive storage and retention (contract 8); absent where archives are not kept. */
  readonly disasterRecovery?: DisasterRecovery
  /** Where webhooks may point (contract 12); absent, any http(s) URL is accepted. */
  readonly webhookTargets?: WebhookTargets
  /** Runs in a write's transaction before it is stored (`ResourceContext.beforeWrite`). */
  readonly beforeWrite: (store: Store, write: ResourceWrite) => Promise<void>
}
