// Built-in image-batches plugin: asynchronous batch image generation (spec §2-§4, §7-§8; docs/image-batches.md).
//
// Data path: POST /v1/images/batches validates the body (submit.ts), admits the batch whole or not at all
// under the key's limits (storage, limits.ts) and schedules its lanes (lanes.ts, engine.ts). Agenda runs the
// lanes on whichever gateway instance has room (worker.ts): claim an item, generate it on the model's targets
// in order (generate.ts, upstream/), store the image, then mark the item succeeded. Clients poll the batch
// (batch-view.ts) and download single images (content.ts) or a streamed ZIP (archive.ts). Recurring jobs
// re-queue items whose worker died and delete images past their retention (maintenance.ts).
import { definePlugin, openStorage } from '../../src/index.ts';
import { Engine } from './engine.ts';
import { createGenerator } from './generate.ts';
import { ANONYMOUS_OWNER, registerRoutes } from './routes.ts';
import { imageBatchesOptionsSchema } from './schema.ts';
import type { ImageBatchesOptions } from './schema.ts';
import { resolveSettings } from './settings.ts';

export default definePlugin<ImageBatchesOptions>({
  name: 'image-batches',
  optionsSchema: imageBatchesOptionsSchema,
  async setup({ options, gateway, logger }) {
    const settings = resolveSettings(options, gateway.config);
    const storage = await openStorage(gateway.config.storage);
    const engine = new Engine({
      storage,
      settings,
      logger,
      generator: createGenerator(gateway, settings.perProvider, settings.download),
      owners: [...gateway.config.keys.map((key) => key.name), ANONYMOUS_OWNER],
    });
    try {
      await engine.start();
    } catch (error) {
      await engine.stop().catch(() => undefined);
      await storage.close();
      throw error;
    }
    gateway.onClose(async () => {
      await engine.stop();
      await storage.close();
    });
    registerRoutes({ gateway, storage, scheduler: engine, settings });
    logger.info(`image batches: ${gateway.config.storage.kind} storage, ${settings.lanesPerInstance} lanes per instance, images kept ${Math.round(settings.retentionMs / 1000)} s`);
  },
});
