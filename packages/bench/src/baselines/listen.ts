import { type Server } from 'node:http';
import { type AddressInfo } from 'node:net';

/** A record as the service returns it, made the cheapest way. */
export interface BareRecord {
  id: string;
  value: string;
  createdAt: string;
  updatedAt: string;
}

/** Listens on HOST:PORT from the environment and says so on stdout, which the bench waits for. */
export function listenFromEnv(server: Server): void {
  server.listen(Number(process.env.PORT ?? '0'), process.env.HOST ?? '127.0.0.1', () => {
    const { port } = server.address() as AddressInfo;
    console.log(`listening ${port}`);
  });
  process.once('SIGTERM', () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}
