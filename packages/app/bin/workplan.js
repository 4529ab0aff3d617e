#!/usr/bin/env node
// The `workplan` command. A committed file rather than dist/main.js itself, so that
// `pnpm install` can link the command before anything is built.
import '../dist/main.js';
