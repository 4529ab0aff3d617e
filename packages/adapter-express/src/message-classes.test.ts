import express from 'express';
import { IncomingMessage, ServerResponse, type Server } from 'node:http';
import { type AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpServer } from './http-server.js';
import { messageClassesFor } from './message-classes.js';

describe('messageClassesFor', () => {
  it("makes an Express app's requests and responses with the app's own prototypes", () => {
    const app = express();
    const classes = messageClassesFor(app);
    const req = new classes.IncomingMessage(new Socket());
    const res = new classes.ServerResponse(req);
    expect(Object.getPrototypeOf(req)).toBe(app.request);
    expect(Object.getPrototypeOf(res)).toBe(app.response);
    expect(req).toBeInstanceOf(IncomingMessage);
    expect(res).toBeInstanceOf(ServerResponse);
  });

  it("gives any other listener Node's own classes", () => {
    expect(messageClassesFor(() => undefined)).toEqual({ IncomingMessage, ServerResponse });
  });
});

describe('createHttpServer with an Express app', () => {
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise<void>((done) => {
      if (server === undefined) done();
      else server.close(() => {
        done();
      });
    });
  });

  it('hands Express requests that already have its prototypes, and answers as before', async () => {
    const app = express();
    app.get('/hello', (req, res) => {
      res.json({ hello: req.query['name'] });
    });
    server = createHttpServer(app);
    const seen: unknown[] = [];
    // Runs before the app's listener, so it sees the prototype the request was made with.
    server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
      seen.push(Object.getPrototypeOf(req) === app.request, Object.getPrototypeOf(res) === app.response);
    });
    await new Promise<void>((listening) => server?.listen(0, '127.0.0.1', listening));
    const { port } = server.address() as AddressInfo;
    const answer = await fetch(`http://127.0.0.1:${port}/hello?name=mundo`);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ hello: 'mundo' });
    expect(seen).toEqual([true, true]);
  });
});
