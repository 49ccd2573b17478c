import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Client as V2 , StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
const root = process.argv[2]; const cli = process.argv[3] ?? 'dist/cli.js';
const ticks = pid => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return (+f[11] + +f[12]) * 10; };
const uri = `file://${root}/a.txt`; const N = 1000;
async function measure(label, c, pid) {
  for (let i = 0; i < 100; i++) await c.readResource({ uri });
  const before = ticks(pid); const t = performance.now();
  for (let i = 0; i < N; i++) await c.readResource({ uri });
  console.log(label.padEnd(14), 'server CPU µs/read', Math.round((ticks(pid) - before) * 1000 / N), ' wall µs/read', Math.round((performance.now() - t) * 1000 / N));
}
const child = spawn('node', [cli, 'serve', '--root', root, '--http', '--log-level', 'warn'], { stdio: ['ignore', 'pipe', 'inherit'] });
const { url, token } = JSON.parse(await new Promise(r => child.stdout.once('data', d => r(String(d)))));
const headers = { Authorization: `Bearer ${token}` };
for (const mode of [{ pin: '2026-07-28' }, 'legacy']) {
  const c = new V2({ name: 'b', version: '1' }, { versionNegotiation: { mode } });
  try { await c.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } })); } catch { console.log('http', JSON.stringify(mode), 'n/a'); continue; }
  await measure('http ' + (mode.pin ? 'modern' : 'legacy'), c, child.pid); await c.close();
}
child.kill();
for (const mode of [{ pin: '2026-07-28' }, 'legacy']) {
  const t = new StdioClientTransport({ command: 'node', args: [cli, 'serve', '--root', root, '--stdio', '--log-level', 'warn'] });
  const c = new V2({ name: 'b', version: '1' }, { versionNegotiation: { mode } });
  try { await c.connect(t); } catch { console.log('stdio', JSON.stringify(mode), 'n/a'); continue; }
  await measure('stdio ' + (mode.pin ? 'modern' : 'legacy'), c, t.pid); await c.close();
}
