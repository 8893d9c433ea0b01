// What is generated and checked in stays what its sources make: the types of src/openapi.ts from the
// api module's OpenAPI document, and dist/ from src/. Also: the types accept and refuse what they should.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(PACKAGE, 'node_modules', '.bin', name);

function inTemporaryFolder(body) {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-ts-generated-'));
  try {
    return body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('src/openapi.ts is what `npm run generate` makes of the OpenAPI document', () => {
  // The generate script's own arguments, with its output redirected.
  const script = JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8')).scripts.generate.split(/\s+/);
  assert.equal(script[0], 'openapi-typescript');
  const output = script.indexOf('-o');
  assert.equal(script[output + 1], 'src/openapi.ts');
  inTemporaryFolder((dir) => {
    const args = script.slice(1);
    args[output] = join(dir, 'openapi.ts');
    execFileSync(bin('openapi-typescript'), args, { cwd: PACKAGE, stdio: ['ignore', 'ignore', 'pipe'] });
    assert.ok(readFileSync(join(dir, 'openapi.ts'), 'utf8') === readFileSync(join(PACKAGE, 'src/openapi.ts'), 'utf8'),
      'src/openapi.ts is stale: run `npm run generate && npm run build` in clients/typescript and commit the result');
  });
});

test('dist/ is what `npm run build` makes of src/', () => {
  inTemporaryFolder((dir) => {
    execFileSync(bin('tsc'), ['-p', 'tsconfig.json', '--outDir', dir], { cwd: PACKAGE, stdio: ['ignore', 'pipe', 'pipe'] });
    const built = readdirSync(dir).sort();
    assert.deepEqual(readdirSync(join(PACKAGE, 'dist')).sort(), built, 'dist/ holds other files: run `npm run build`');
    for (const file of built) {
      assert.ok(readFileSync(join(dir, file), 'utf8') === readFileSync(join(PACKAGE, 'dist', file), 'utf8'),
        `dist/${file} is stale: run \`npm run build\` in clients/typescript and commit the result`);
    }
  });
});

test('the shipped types accept what the document allows and refuse what it does not', () => {
  try {
    execFileSync(bin('tsc'), ['-p', 'test/tsconfig.json'], { cwd: PACKAGE, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    assert.fail(`test/types.check.ts does not compile as it should:\n${e.stdout}${e.stderr}`);
  }
});
