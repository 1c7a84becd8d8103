// The batch API (docs/image-batches.md). Every batch belongs to the key that created it: another key gets
// the same 404 as for an id that does not exist. Errors are GatewayErrors, rendered by the core in the
// OpenAI shape.
import type { Request, Response } from 'express';
import { GatewayError, isGatewayError, isTerminalBatchStatus } from '../../src/index.ts';
import type { Batch, GatewayApi, KeyIdentity, RequestContext, ResolvedRoute, Storage } from '../../src/index.ts';
import { assertArchiveAvailable, streamArchive } from './archive.ts';
import { batchPath, batchView, listView } from './batch-view.ts';
import { sendItemContent } from './content.ts';
import { admissionLimits, rejectionError } from './limits.ts';
import { laneOrphans } from './maintenance.ts';
import type { LaneScheduler } from './maintenance.ts';
import type { Settings } from './settings.ts';
import { createSubmissionParser, idempotencyKeyOf, newBatchItems, requestHash } from './submit.ts';

export interface RouteDeps {
  gateway: GatewayApi;
  storage: Storage;
  scheduler: LaneScheduler;
  settings: Settings;
}

const BASE = '/v1/images/batches';
const DEFAULT_PAGE = 20;
const MAX_PAGE = 100;
/** Owner of batches created without a key identity (auth not in the chain). */
export const ANONYMOUS_OWNER = 'anonymous';

const ownerOf = (ctx: RequestContext): string => ctx.key?.name ?? ANONYMOUS_OWNER;

function param(req: Request, name: string): string {
  const value = req.params[name];
  return typeof value === 'string' ? value : '';
}

function notFound(batchId: string): GatewayError {
  return new GatewayError('resource_not_found', `No batch found with id '${batchId}'.`);
}

/** A configured image model this key may use; anything else is a 404 naming the model. */
function imageRoute(gateway: GatewayApi, model: string, key: KeyIdentity | undefined): ResolvedRoute {
  try {
    return gateway.resolveModel(model, key, { type: 'image' });
  } catch (error) {
    if (isGatewayError(error) && error.code === 'invalid_request') {
      throw new GatewayError('model_not_found', `The model '${model}' is not an image model; image batches need a model configured with type: image.`, { param: 'model' });
    }
    throw error;
  }
}

type Handler = (req: Request, res: Response, ctx: RequestContext) => Promise<void>;

function sendBatch(res: Response, status: number, batch: Batch, settings: Settings): void {
  if (!isTerminalBatchStatus(batch.status)) res.setHeader('retry-after', String(settings.pollAfterSeconds));
  res.status(status).json(batchView(batch, settings.publicUrl));
}

async function ownedBatch(deps: RouteDeps, ctx: RequestContext, batchId: string): Promise<Batch> {
  ctx.logFields['batch_id'] = batchId;
  const batch = await deps.storage.batches.findForOwner(ownerOf(ctx), batchId);
  if (!batch) throw notFound(batchId);
  return batch;
}

function submitHandler(deps: RouteDeps): Handler {
  const { gateway, storage, scheduler, settings } = deps;
  const parseSubmission = createSubmissionParser(settings.maxItems);
  return async (req, res, ctx) => {
    const submission = parseSubmission(req.body);
    ctx.model = submission.model;
    const route = imageRoute(gateway, submission.model, ctx.key);
    const idempotencyKey = idempotencyKeyOf(ctx.headers);
    const hash = requestHash(submission);
    const owner = ownerOf(ctx);
    const items = newBatchItems(submission, route.model);
    const result = await storage.batches.createBatch(
      { owner, model: submission.model, items, requestHash: hash, ...(submission.metadata ? { metadata: submission.metadata } : {}), ...(idempotencyKey ? { idempotencyKey } : {}) },
      { limits: admissionLimits(settings, new Date()) },
    );
    if (result.outcome === 'rejected') {
      throw rejectionError(result, owner, items.length, items.filter((item) => !item.initialError).length, settings.pollAfterSeconds);
    }
    const { batch } = result;
    ctx.logFields['batch_id'] = batch.id;
    if (result.outcome === 'existing') {
      if (batch.requestHash !== hash) {
        throw new GatewayError('idempotency_conflict', `Idempotency-Key "${idempotencyKey}" was already used for a different request (batch ${batch.id}); use a new key for a new batch.`);
      }
      res.setHeader('idempotent-replayed', 'true');
      // A replay is how a client recovers from a failed submit: schedule whatever the first call did not.
      await laneOrphans(scheduler, batch);
    } else {
      await scheduler.scheduleLanes(batch.id, batch.items.filter((item) => item.status === 'queued').map((item) => item.index));
    }
    res.setHeader('location', `${settings.publicUrl}${batchPath(batch.id)}`);
    sendBatch(res, 202, batch, settings);
  };
}

function listHandler(deps: RouteDeps): Handler {
  return async (_req, res, ctx) => {
    const rawLimit = ctx.query['limit'];
    const limit = rawLimit === undefined ? DEFAULT_PAGE : /^\d{1,4}$/.test(rawLimit) ? Number(rawLimit) : Number.NaN;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE) {
      throw new GatewayError('invalid_request', `limit must be an integer from 1 to ${MAX_PAGE}.`, { param: 'limit' });
    }
    const after = ctx.query['after'];
    const page = await deps.storage.batches.listForOwner(ownerOf(ctx), { limit, ...(after ? { after } : {}) });
    res.json(listView(page.batches, page.hasMore, deps.settings.publicUrl));
  };
}

function retryHandler(deps: RouteDeps): Handler {
  return async (req, res, ctx) => {
    const batch = await ownedBatch(deps, ctx, param(req, 'id'));
    if (batch.cancelledAt) {
      throw new GatewayError('invalid_request', `Batch ${batch.id} was cancelled; its failed items cannot be retried. Submit them as a new batch.`);
    }
    const change = await deps.storage.batches.retryFailed(ownerOf(ctx), batch.id);
    if (!change) throw notFound(batch.id);
    await deps.scheduler.scheduleLanes(batch.id, change.indexes);
    sendBatch(res, 200, change.batch, deps.settings);
  };
}

function cancelHandler(deps: RouteDeps): Handler {
  return async (req, res, ctx) => {
    const batchId = param(req, 'id');
    ctx.logFields['batch_id'] = batchId;
    const change = await deps.storage.batches.cancel(ownerOf(ctx), batchId);
    if (!change) throw notFound(batchId);
    sendBatch(res, 200, change.batch, deps.settings);
  };
}

export function registerRoutes(deps: RouteDeps): void {
  const { gateway, storage, settings } = deps;
  gateway.addRoute({ method: 'POST', path: BASE, handler: submitHandler(deps) });
  gateway.addRoute({ method: 'GET', path: BASE, handler: listHandler(deps) });
  gateway.addRoute({
    method: 'GET',
    path: `${BASE}/:id`,
    handler: async (req, res, ctx) => sendBatch(res, 200, await ownedBatch(deps, ctx, param(req, 'id')), settings),
  });
  gateway.addRoute({ method: 'POST', path: `${BASE}/:id/retry`, jsonBody: false, handler: retryHandler(deps) });
  gateway.addRoute({ method: 'POST', path: `${BASE}/:id/cancel`, jsonBody: false, handler: cancelHandler(deps) });
  gateway.addRoute({
    method: 'GET',
    path: `${BASE}/:id/items/:index/content`,
    handler: async (req, res, ctx) => sendItemContent(req, res, await ownedBatch(deps, ctx, param(req, 'id')), param(req, 'index'), storage.blobs),
  });
  gateway.addRoute({
    method: 'GET',
    path: `${BASE}/:id/archive`,
    handler: async (req, res, ctx) => {
      const batch = await ownedBatch(deps, ctx, param(req, 'id'));
      assertArchiveAvailable(batch, new Date());
      await streamArchive(res, batch, storage.blobs);
    },
  });
}
