// Starts a real `quarry serve` through the repository's ./quarry launcher (which builds the server
// when it is not built yet) on a free loopback port, with a tokens file, and stops it.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';

export const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** Starts a server whose tokens are `tokens` ({subject: {token, grants}}); answers {url, stop}. */
export async function startServer(tokens) {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-ts-client-'));
  writeFileSync(join(dir, 'tokens.json'), JSON.stringify({
    tokens: Object.entries(tokens).map(([subject, t]) => ({ subject, token: t.token, grants: t.grants })),
  }), { mode: 0o600 }); // it holds secrets: the server warns about a file others may read
  const server = spawn(join(REPO, 'quarry'), ['serve', '--data', join(dir, 'data'), '--port', '0',
    '--tokens', join(dir, 'tokens.json')], { stdio: ['ignore', 'pipe', 'pipe'] });
  // The server's log is shown only when it stops on its own (its last lines say why).
  const log = [];
  createInterface({ input: server.stderr }).on('line', (line) => { log.push(line); if (log.length > 60) log.shift(); });
  let stopping = false;
  server.on('exit', (code) => { if (!stopping) console.error(`quarry serve exited with ${code}:\n${log.join('\n')}`); });
  const url = await new Promise((resolve, reject) => {
    const lines = createInterface({ input: server.stdout });
    lines.on('line', (line) => {
      const m = /^listening on (http:\/\/\S+)/.exec(line);
      if (m) resolve(m[1]);
    });
    server.on('exit', (code) => reject(new Error(`quarry serve exited with ${code}`)));
  });
  return {
    url,
    async stop() {
      stopping = true;
      if (server.exitCode === null && server.signalCode === null) {
        const exited = new Promise((resolve) => server.once('exit', resolve));
        server.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
