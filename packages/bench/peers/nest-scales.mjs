// The NestJS app of peers (d) and (e): what a team would write instead of this service,
// the usual controller and service over a Map, with a ValidationPipe (class-validator and
// class-transformer) on the bodies. Plain JavaScript: the workspace's TypeScript has no
// legacy decorators (`experimentalDecorators`, `emitDecoratorMetadata`), so the decorators
// are applied with `Reflect.decorate` and the metadata tsc would emit is written by hand
// (`design:paramtypes`); Nest sees the same classes and metadata either way.
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { Body, Controller, Delete, Get, Injectable, Module, NotFoundException, Param, ParseIntPipe, Post, Put, Res, UsePipes, ValidationPipe } =
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
  // Nest's modules are empty classes that carry their metadata.
  // eslint-disable-next-line @typescript-eslint/no-extraneous-class
  class ScalesModule {}
  Reflect.decorate([Module({ controllers: [ScaleController], providers: [ScaleService] })], ScalesModule);
  return ScalesModule;
}

/** Listens on HOST:PORT and says so on stdout, as the bench's baselines do. */
export async function listen(app) {
  await app.listen(Number(process.env.PORT ?? '0'), process.env.HOST ?? '127.0.0.1');
  const { port } = app.getHttpServer().address();
  console.log(`listening ${port}`);
  process.once('SIGTERM', () => process.exit(0));
}
