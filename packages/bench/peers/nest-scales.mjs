// The NestJS app of peers (d) and (e): what a team would write instead of this service,
// the usual controller and service over a Map, with a ValidationPipe (class-validator and
// class-transformer) on the bodies, and what the app does on every request: a guard that
// checks the `key` header against API_KEYS, one pino line and a prom-client histogram
// observation per answered request (an interceptor), the envelope. Plain JavaScript: the workspace's TypeScript has no
// legacy decorators (`experimentalDecorators`, `emitDecoratorMetadata`), so the decorators
// are applied with `Reflect.decorate` and the metadata tsc would emit is written by hand
// (`design:paramtypes`); Nest sees the same classes and metadata either way.
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { pino } from 'pino';
import { Histogram, Registry } from 'prom-client';

const require = createRequire(import.meta.url);
const { Body, Controller, Delete, Get, Injectable, Module, NotFoundException, Param, ParseIntPipe, Post, Put, Res, UnauthorizedException, UsePipes, ValidationPipe } =
  require('@nestjs/common');
const { IsString } = require('class-validator');

/** Applies method decorators as tsc's `__decorate` does, so route metadata lands on the method. */
function decorateMethod(type, name, decorators) {
  const descriptor = Object.getOwnPropertyDescriptor(type.prototype, name);
  Object.defineProperty(type.prototype, name, Reflect.decorate(decorators, type.prototype, name, descriptor));
}

/** tsc's `__param(index, decorator)`. */
const param = (index, decorator) => (target, key) => decorator(target, key, index);

/** The body of create and update. */
export class ScaleBody {
  value;
}
Reflect.decorate([IsString()], ScaleBody.prototype, 'value', undefined);

export class ScaleService {
  #records = new Map();

  create(value) {
    const now = new Date().toISOString();
    const record = { id: randomUUID(), value, createdAt: now, updatedAt: now };
    this.#records.set(record.id, record);
    return record;
  }

  find(id) {
    const record = this.#records.get(id);
    if (record === undefined) throw new NotFoundException();
    return record;
  }

  update(id, value) {
    const updated = { ...this.find(id), value, updatedAt: new Date().toISOString() };
    this.#records.set(id, updated);
    return updated;
  }

  delete(id) {
    if (!this.#records.delete(id)) throw new NotFoundException();
  }

  list(skip, limit) {
    const page = [];
    let index = 0;
    for (const record of this.#records.values()) {
      if (page.length === limit) break;
      if (index++ >= skip) page.push(record);
    }
    return page;
  }
}
Reflect.decorate([Injectable()], ScaleService);

export class ScaleController {
  #scales;

  constructor(scales) {
    this.#scales = scales;
  }

  create(body, response) {
    const record = this.#scales.create(body.value);
    response.header('location', `/api/v1/scale/${record.id}`);
    return { success: true, data: record };
  }

  find(id) {
    return { success: true, data: this.#scales.find(id) };
  }

  update(id, body) {
    return { success: true, data: this.#scales.update(id, body.value) };
  }

  delete(id) {
    this.#scales.delete(id);
    return { success: true };
  }

  list(skip, limit) {
    return { success: true, data: this.#scales.list(skip, limit) };
  }
}

/** `GET /health/live`, without a key, as the app's: what the bench waits for before it starts. */
export class HealthController {
  live() {
    return { status: 'ok' };
  }
}

/** Lets a request through when its `key` header is one of API_KEYS (comma-separated); health checks need none. */
export class KeyGuard {
  #keys = new Set((process.env.API_KEYS ?? '').split(',').map((key) => key.trim()).filter((key) => key !== ''));

  canActivate(context) {
    const request = context.switchToHttp().getRequest();
    if (context.getClass() === HealthController) return true;
    if (!this.#keys.has(request.headers.key)) throw new UnauthorizedException();
    return true;
  }
}

/** One pino line and one histogram observation for each answered request, once its response is finished. */
export class RequestObserver {
  #logger = pino();
  #duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method, route and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [new Registry()],
  });

  intercept(context, next) {
    const started = performance.now();
    const http = context.switchToHttp();
    const request = http.getRequest();
    const response = http.getResponse();
    const raw = response.raw ?? response; // Fastify's reply wraps Node's response; Express's is it
    const route = Reflect.getMetadata('path', context.getHandler());
    raw.once('finish', () => {
      const seconds = (performance.now() - started) / 1000;
      this.#duration.observe({ method: request.method, route, status: String(raw.statusCode) }, seconds);
      this.#logger.info({ req: { method: request.method, url: request.url }, res: { statusCode: raw.statusCode }, responseTime: seconds * 1000 }, 'request completed');
    });
    return next.handle();
  }
}

/**
 * The module, with `routeSchemas` (operation -> method decorators) added to the routes:
 * the Fastify peer gives its response schemas there.
 */
export function scalesModule(routeSchemas = {}) {
  const validate = UsePipes(new ValidationPipe());
  const extra = (name) => routeSchemas[name] ?? [];
  Reflect.defineMetadata('design:paramtypes', [ScaleService], ScaleController);
  Reflect.defineMetadata('design:paramtypes', [ScaleBody, Object], ScaleController.prototype, 'create');
  Reflect.defineMetadata('design:paramtypes', [String, ScaleBody], ScaleController.prototype, 'update');
  decorateMethod(ScaleController, 'create', [Post('scale'), validate, ...extra('create'), param(0, Body()), param(1, Res({ passthrough: true }))]);
  decorateMethod(ScaleController, 'find', [Get('scale/:id'), ...extra('find'), param(0, Param('id'))]);
  decorateMethod(ScaleController, 'update', [Put('scale/:id'), validate, ...extra('update'), param(0, Param('id')), param(1, Body())]);
  decorateMethod(ScaleController, 'delete', [Delete('scale/:id'), param(0, Param('id'))]);
  decorateMethod(ScaleController, 'list', [Get('scales/:skip/:limit'), ...extra('list'), param(0, Param('skip', ParseIntPipe)), param(1, Param('limit', ParseIntPipe))]);
  Reflect.decorate([Controller('api/v1')], ScaleController);
  decorateMethod(HealthController, 'live', [Get('live')]);
  Reflect.decorate([Controller('health')], HealthController);
  // Nest's modules are empty classes that carry their metadata.
  // eslint-disable-next-line @typescript-eslint/no-extraneous-class
  class ScalesModule {}
  Reflect.decorate([Module({ controllers: [ScaleController, HealthController], providers: [ScaleService] })], ScalesModule);
  return ScalesModule;
}

/** Guards and observes every route, and listens on HOST:PORT; its stdout is the request log. */
export async function listen(app) {
  app.useGlobalGuards(new KeyGuard());
  app.useGlobalInterceptors(new RequestObserver());
  await app.listen(Number(process.env.PORT ?? '0'), process.env.HOST ?? '127.0.0.1');
  process.once('SIGTERM', () => process.exit(0));
}
