// Peer (e): the same NestJS app on the Fastify 5 platform, its answers serialised by
// Fastify from JSON schemas (fast-json-stringify) rather than JSON.stringify.
import { createRequire } from 'node:module';
import { listen, scalesModule } from './nest-scales.mjs';

const require = createRequire(import.meta.url);
const { NestFactory } = require('@nestjs/core');
const { FastifyAdapter, RouteSchema } = require('@nestjs/platform-fastify');

const record = {
  type: 'object',
  properties: { id: { type: 'string' }, value: { type: 'string' }, createdAt: { type: 'string' }, updatedAt: { type: 'string' } },
  required: ['id', 'value', 'createdAt', 'updatedAt'],
};
const envelope = (data) => ({ type: 'object', properties: { success: { type: 'boolean' }, data }, required: ['success', 'data'] });
const one = envelope(record);
const page = envelope({ type: 'array', items: record });

const schemas = {
  create: [RouteSchema({ response: { 201: one } })],
  find: [RouteSchema({ response: { 200: one } })],
  update: [RouteSchema({ response: { 200: one } })],
  list: [RouteSchema({ response: { 200: page } })],
};
await listen(await NestFactory.create(scalesModule(schemas), new FastifyAdapter()));
