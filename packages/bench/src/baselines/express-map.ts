// Baseline (b): a bare Express 5 app with express.json() mounted, keeping records in a Map.
// No key check, no validation beyond "value is a string", no uniqueness, no logging.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import express from 'express';
import { listenFromEnv, type BareRecord } from './listen.js';

const records = new Map<string, BareRecord>();
const app = express();
app.use(express.json());

const valueOf = (body: unknown): string | undefined => {
  const value = (body as { value?: unknown } | undefined)?.value;
  return typeof value === 'string' ? value : undefined;
};

app.post('/api/v1/scale', (req, res) => {
  const value = valueOf(req.body);
  if (value === undefined) return void res.status(400).json({ success: false });
  const now = new Date().toISOString();
  const record = { id: randomUUID(), value, createdAt: now, updatedAt: now };
  records.set(record.id, record);
  res.status(201).location(`/api/v1/scale/${record.id}`).json({ success: true, data: record });
});

app.get('/api/v1/scale/:id', (req, res) => {
  const record = records.get(req.params.id);
  if (record === undefined) return void res.status(404).json({ success: false });
  res.json({ success: true, data: record });
});

app.put('/api/v1/scale/:id', (req, res) => {
  const record = records.get(req.params.id);
  const value = valueOf(req.body);
  if (record === undefined || value === undefined) return void res.status(404).json({ success: false });
  const updated = { ...record, value, updatedAt: new Date().toISOString() };
  records.set(record.id, updated);
  res.json({ success: true, data: updated });
});

app.delete('/api/v1/scale/:id', (req, res) => {
  const deleted = records.delete(req.params.id);
  res.status(deleted ? 200 : 404).json({ success: deleted });
});

app.get('/api/v1/scales/:skip/:limit', (req, res) => {
  const skip = Number(req.params.skip);
  const limit = Number(req.params.limit);
  const data: BareRecord[] = [];
  let index = 0;
  for (const record of records.values()) {
    if (data.length === limit) break;
    if (index++ >= skip) data.push(record);
  }
  res.json({ success: true, data });
});

listenFromEnv(createServer(app));
