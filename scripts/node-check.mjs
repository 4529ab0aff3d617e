// `pnpm start` and `pnpm dev` run this first, on whatever Node is on PATH: on one older than
// workplan needs, it says in one line which Node it needs and which this is, before anything
// is built or run. The Node needed is the one the app's `engines` names.
import { readFileSync } from 'node:fs';

const { engines } = JSON.parse(readFileSync(new URL('../packages/app/package.json', import.meta.url), 'utf8'));
const needed = Number(/^>=(\d+)$/u.exec(engines.node)?.[1]);
const found = process.versions.node;
if (Number(found.split('.')[0]) < needed) {
  console.error(`workplan did not start: it needs Node ${needed} or later; this is Node ${found}`);
  process.exit(1);
}
