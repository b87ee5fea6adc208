#!/usr/bin/env node
import { runCli } from './cli.js';

/** The CLI unbundled (dist/src/cli/main.js); the package's bin is the bundle (see launcher.ts). */
await runCli(process.argv.slice(2));
