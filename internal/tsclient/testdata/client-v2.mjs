// The driver with the TypeScript SDK's split client package
// (@modelcontextprotocol/client), run from the repository's pinned
// install: a client version whose callTool skips the output schema on
// error results. Its version is read from the package it imports.

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

import { serve } from '../driver.mjs';

function version(name) {
  for (let dir = dirname(fileURLToPath(import.meta.resolve(name))); dir !== dirname(dir); dir = dirname(dir)) {
    try {
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      if (manifest.name === name) {
        return manifest.version;
      }
    } catch {
      // not a package directory
    }
  }
  throw new Error(`no package.json of ${name} above its entry`);
}

serve({ Client, StdioClientTransport, name: 'typescript-sdk Client', version: version('@modelcontextprotocol/client') });
