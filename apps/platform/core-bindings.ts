import { currentActor } from '../../adapters/security/actor-scope.js'
import { ContainerModule } from 'inversify'
import { FileArchiver } from '../../adapters/archive/file-archiver.js'
import { templatePaymentLinkProvider } from '../../adapters/payments/template-payment-link-provider.js'
import type { Database } from '../../adapters/persistence/connect.js'
import { KyselyStore } from '../../adapters/persistence/kysely-store.js'
import { SystemClock } from '../../adapters/persistence/system-clock.js'
import { ResolvingWebhookTargets } from '../../adapters/webhooks/webhook-targets.js'
import { nodeDigest } from '../../adapters/security/node-digest.js'
import { nodeKeySecrets } from '../../adapters/security/node-key-secrets.js'
import { nodeRandom } from '../../adapters/security/node-random.js'
import { scryptPasswordHasher } from '../../adapters/security/scrypt-password-hasher.js'
import { DEFAULT_RETENTION_DAYS, type DisasterRecovery } from '../../core/disaster-recovery/archive-files.js'
import { resourcesByName } from '../../core/fields/catalogue.js'
import type { Resource, ResourceName } from '../../core/fields/resource.js'
import { InputValidator } from '../../core/input/validate.js'
import type { PlatformContext } from '../../core/platform.js'
import { freezeTariffPrices } from '../../core/billing/tariff-price-freeze.js'
import type { Clock } from '../../core/ports/clock.js'
import type { KeySecrets } from '../../core/ports/key-hasher.js'
import type { ResourceWrite, Store } from '../../core/ports/store.js'
import { defaultPresets, type Presets } from '../../core/presets/presets.js'
import { DEFAULT_KEY_CACHE_MS } from './config.js'
import { loggedArchiver } from './logged-archiver.js'
import { silentLogger, type Logger } from './logger.js'
import type { PlatformConfig } from './platform.js'
import { TYPES } from './tokens.js'

/** What the use cases run on: the database and its store, the clock, presets, secrets and archives. */
export function coreBindings(config: PlatformConfig, database: Database): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind<Database>(TYPES.Database).toConstantValue(database)
    bind<Clock>(TYPES.Clock).toConstantValue(config.clock ?? new SystemClock())
    bind<Presets>(TYPES.Presets).toConstantValue(config.presets ?? defaultPresets)
    bind<Logger>(TYPES.Logger).toConstantValue(config.logger ?? silentLogger)
    bind<KeySecrets>(TYPES.KeySecrets).toConstantValue(nodeKeySecrets)
    bind<ReadonlyMap<ResourceName, Resource>>(TYPES.Resources).toConstantValue(resourcesByName)
    bind<Store>(TYPES.Store)
      .toResolvedValue(
        (db: Database, resources: ReadonlyMap<ResourceName, Resource>, clock: Clock) =>
          new KyselyStore(db.db, db.dialect, resources, {
            keyCacheMs: config.keyCacheMs ?? DEFAULT_KEY_CACHE_MS,
            actor: currentActor,
            readsBeside: db.readsBeside,
            bulkWrites: db.bulkWrites,
            pipelinedWrites: db.pipelinedWrites,
            // What is overdue is read against the platform's clock (contract 17.6).
            today: () => clock.today(),
          }),
        [TYPES.Database, TYPES.Resources, TYPES.Clock],
      )
      .inSingletonScope()
    bind<InputValidator>(TYPES.Validator)
      .toResolvedValue((presets: Presets) => new InputValidator(presets), [TYPES.Presets])
      .inSingletonScope()
    bind<DisasterRecovery>(TYPES.DisasterRecovery)
      .toResolvedValue(
        (db: Database, logger: Logger) => ({
          archiver: loggedArchiver(new FileArchiver(db, { dir: config.drDir ?? './data/dr', password: config.drPassword ?? null }), logger),
          retentionDays: config.drRetentionDays ?? DEFAULT_RETENTION_DAYS,
        }),
        [TYPES.Database, TYPES.Logger],
      )
      .inSingletonScope()
    bind<PlatformContext>(TYPES.PlatformContext)
      .toResolvedValue(
        (store: Store, validator: InputValidator, clock: Clock, presets: Presets, resources: ReadonlyMap<ResourceName, Resource>, disasterRecovery: DisasterRecovery) => ({
          store,
          validator,
          clock,
          presets,
          resources,
          passwords: config.passwordHasher ?? scryptPasswordHasher,
          random: nodeRandom,
          paymentLinks: config.paymentLinks ?? templatePaymentLinkProvider,
          digest: nodeDigest,
          disasterRecovery,
          webhookTargets: new ResolvingWebhookTargets(config.allowPrivateWebhooks ?? false),
          beforeWrite: (tx: Store, write: ResourceWrite) => freezeTariffPrices(tx, presets, write),
        }),
        [TYPES.Store, TYPES.Validator, TYPES.Clock, TYPES.Presets, TYPES.Resources, TYPES.DisasterRecovery],
      )
      .inSingletonScope()
  })
}
