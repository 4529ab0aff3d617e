// `pnpm dev`: builds once, then keeps two processes running until Ctrl-C: `tsc -b --watch`,
// which rebuilds every package on a change, and the app under `node --watch`, which
// restarts it whenever a file it loaded is rebuilt. Settings come from the environment
// and from `.env` in the working directory when there is one as it starts (`.env.example` lists them).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const tsc = fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url));
const main = fileURLToPath(new URL('../packages/app/dist/main.js', import.meta.url));

// A first build, so the app has something to start from and errors show before it does.
const build = spawnSync(process.execPath, [tsc, '-b'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

// The V8 settings `pnpm start` and the image pass, read from the build just made.
const { NODE_FLAGS: nodeFlags } = await import(new URL('../packages/app/dist/node-flags.js', import.meta.url).href);

// `.env` only when there is one: Node's watch mode, given an env file that is missing
// (`--env-file-if-exists`), aborts on SIGTERM and leaves the app it ran serving.
const envFile = existsSync('.env') ? ['--env-file=.env'] : [];

const children = [
  spawn(process.execPath, [tsc, '-b', '--watch', '--preserveWatchOutput'], { cwd: root, stdio: 'inherit' }),
  spawn(process.execPath, ['--watch', '--watch-preserve-output', ...envFile, ...nodeFlags, main], { stdio: 'inherit' }),
];

// One ends, all end: Ctrl-C (or SIGTERM) stops both, and so does either one exiting. This
// process exits only after both have, so nothing is left watching in the background.
let stopping = false;
function stop(code) {
  if (stopping) return;
  stopping = true;
  process.exitCode = code;
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stop(0));
for (const child of children) child.on('exit', (code) => stop(code ?? 0));
