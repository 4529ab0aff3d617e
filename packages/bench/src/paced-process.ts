// The generator process of paced loads (paced-generator.ts): runs each run it is sent and
// answers with its samples; ends when the bench lets go of it.
import { rssOf } from './processes.js';
import { runPaced, type PacedRequest } from './paced.js';
import { type PacedRequests, type RunAnswer, type RunMessage } from './paced-generator.js';
import { createOfNewValue, findOfAnyId } from './workloads.js';
import { type Sample } from './load.js';

function requestsOf(requests: PacedRequests): () => PacedRequest {
  switch (requests.kind) {
    case 'find':
      return () => findOfAnyId(requests.ids);
    case 'create':
      return createOfNewValue;
    case 'get':
      return () => ({ method: 'GET', path: requests.path });
  }
}

async function send(run: RunMessage): Promise<Sample[]> {
  const server = { url: run.server.url, rssMb: () => rssOf(run.server.pid) };
  return Promise.all(
    run.loads.map((load) =>
      runPaced({ server, seconds: run.seconds, perSecond: load.perSecond, connections: load.connections, headers: run.headers, next: requestsOf(load.requests) }),
    ),
  );
}

process.on('message', (run: RunMessage) => {
  void (async () => {
    let answer: RunAnswer;
    try {
      answer = { id: run.id, samples: await send(run) };
    } catch (error) {
      answer = { id: run.id, failure: error instanceof Error ? error.message : String(error) };
    }
    process.send?.(answer);
  })();
});
process.on('disconnect', () => process.exit(0));
