/**
 * The local viewer reads an MCP call across processes: the server's observation in the tree under
 * the client's call, named with the process that answered (`⇄ weather 1.2.0 · server.mjs (pid N)`),
 * and what the tool did under it. Real headless Chromium (Debian's), skipped where there is none.
 */
import { existsSync } from 'node:fs';
import { startActiveObservation } from '@obs/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { observeMcpClient } from '../src/index.js';
import { SERVER_SCRIPT, setup } from './support/harness.js';

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find((p) => existsSync(p));
const { local, serverEnv, trace } = setup();
let browser: Browser | undefined;
afterAll(() => browser?.close());

describe.skipIf(!CHROMIUM)('the trace viewer', () => {
  it("shows the MCP server's observations under the client's call, with the server process named", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [SERVER_SCRIPT, 'v1', 'stdio', 'obs'],
      env: { ...getDefaultEnvironment(), ...serverEnv() },
      stderr: 'pipe',
    });
    const client = observeMcpClient(new Client({ name: 'obs-test', version: '1.0.0' }));
    await client.connect(transport);
    const pid = transport.pid;
    let traceId = '';
    await startActiveObservation('agent-turn', async (root) => {
      traceId = root.traceId;
      await client.callTool({ name: 'get_weather', arguments: { city: 'Paris' } });
    });
    await client.close();
    await trace(traceId, 5);

    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
    const page = await browser.newPage();
    await page.goto(`${local.server.url}/#/trace/${traceId}`);
    await page.waitForSelector('#tree .tree-row');
    const rows = await page.$$eval('#tree .tree-row', (els) =>
      els.map((e) => `${e.getAttribute('data-depth')} ${e.querySelector('.tree-name')?.textContent}`),
    );
    const badge = `⇄ weather 1.2.0 · server.mjs (pid ${pid})`;
    expect(rows).toEqual([
      '0 spanagent-turn',
      '1 tooltools/call get_weather',
      `2 tooltools/call get_weather${badge}`,
      '3 retrieverlookup-city',
      '4 generationsummarise',
    ]);
    await page.click(`#tree .tree-row:has-text("${badge}")`);
    await page.waitForFunction(() => document.querySelector('#detail .kv')?.textContent?.includes('process'));
    expect(await page.textContent('#detail .kv')).toContain(`weather 1.2.0 · server.mjs (pid ${pid})`);
  });
});
