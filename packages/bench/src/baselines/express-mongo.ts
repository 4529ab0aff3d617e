// Baseline (c): bare Express 5 routes doing the app's findOne, and its list of a page, with
// the MongoDB driver, on the collection the app writes (`workSchedules` in the database
// MONGODB_URI names).
import { createServer } from 'node:http';
import express from 'express';
import { type Binary, MongoClient, UUID } from 'mongodb';
import { listenFromEnv } from './listen.js';

interface Stored {
  _id: Binary;
  value: string;
  createdAt: Date;
  updatedAt: Date;
}

const client = new MongoClient(process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27017/');
const collection = client.db().collection<Stored>('workSchedules');
const CANONICAL = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/u;

const app = express();
app.use(express.json());
app.get('/api/v1/scale/:id', (req, res, next) => {
  const id = req.params.id;
  if (!CANONICAL.test(id)) return void res.status(404).json({ success: false });
  collection.findOne({ _id: new UUID(id) }).then((found) => {
    if (found === null) return void res.status(404).json({ success: false });
    const data = { id, value: found.value, createdAt: found.createdAt.toISOString(), updatedAt: found.updatedAt.toISOString() };
    res.json({ success: true, data });
  }, next);
});

// The app's list: the same order (its index `createdAt_id`), skip and limit.
app.get('/api/v1/scales/:skip/:limit', (req, res, next) => {
  const [skip, limit] = [Number(req.params.skip), Number(req.params.limit)];
  collection.find({}).sort({ createdAt: 1, _id: 1 }).skip(skip).limit(limit).toArray().then((found) => {
    const data = found.map((doc) => ({
      id: doc._id.toUUID().toHexString(),
      value: doc.value,
      createdAt: doc.createdAt.toISOString(),
      updatedAt: doc.updatedAt.toISOString(),
    }));
    res.json({ success: true, data });
  }, next);
});

await client.connect();
listenFromEnv(createServer(app));
