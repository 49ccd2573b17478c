import { spawn } from 'node:child_process';
import { Client as V2 , StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
const root = process.argv[2];
const child = spawn('node', ['dist/cli.js', 'serve', '--root', root, '--http', '--log-level', 'warn'], { stdio: ['ignore', 'pipe', 'inherit'] });
const { url, token } = JSON.parse(await new Promise(r => child.stdout.once('data', d => r(String(d)))));
const headers = { Authorization: `Bearer ${token}` };
async function bench(label, client, uri, n = 600) {
  for (let i = 0; i < 50; i++) await client.readResource({ uri });
  let t = performance.now();
  for (let i = 0; i < n; i++) await client.readResource({ uri });
  const one = n / ((performance.now() - t) / 1000);
  t = performance.now();
  await Promise.all(Array.from({ length: 8 }, async () => { for (let i = 0; i < n / 4; i++) await client.readResource({ uri }); }));
  const eight = (n * 2) / ((performance.now() - t) / 1000);
  console.log(label, Math.round(one), Math.round(eight));
}
const uri = `file://${root}/a.txt`;
const modern = new V2({ name: 'b', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
await modern.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
await bench('http modern', modern, uri);
const legacy = new V2({ name: 'b', version: '1' });
await legacy.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
await bench('http legacy', legacy, uri);
for (const mode of [{ pin: '2026-07-28' }, 'legacy']) {
  const c = new V2({ name: 'b', version: '1' }, { versionNegotiation: { mode } });
  await c.connect(new StdioClientTransport({ command: 'node', args: ['dist/cli.js', 'serve', '--root', root, '--stdio', '--log-level', 'warn'] }));
  await bench('stdio ' + JSON.stringify(mode), c, uri);
  await c.close();
}
await modern.close(); await legacy.close(); child.kill();
