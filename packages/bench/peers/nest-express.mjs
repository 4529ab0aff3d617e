// Peer (d): NestJS 11 on its Express platform, default logger on, records in a Map.
import { createRequire } from 'node:module';
import { listen, scalesModule } from './nest-scales.mjs';

const require = createRequire(import.meta.url);
const { NestFactory } = require('@nestjs/core');
const { ExpressAdapter } = require('@nestjs/platform-express');

await listen(await NestFactory.create(scalesModule(), new ExpressAdapter()));
