import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import { chromium } from 'playwright-core';
import { testDatabases } from '../helpers/stores.ts';
import { createTestApp } from '../helpers/app.ts';

/** Debian's chromium; CI installs it (.ci/run), a developer machine may not have it. */
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const skip = fs.existsSync(CHROMIUM)
  ? false
  : `${CHROMIUM} is missing: install it (apt-get install chromium) to test the docs page`;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

test('the docs page lists the endpoints and "try it" answers with a key', { skip }, async () => {
  // The document's server is the public base URL, so the page's requests go to this instance.
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const t = await createTestApp(testDatabases[0]!, { PUBLIC_BASE_URL: origin });
  await t.app.listen({ port, host: '127.0.0.1' });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    timeout: 30_000,
  });
  try {
    const page = await browser.newPage();
    page.setDefaultTimeout(20_000);
    const elsewhere: string[] = [];
    const failures: string[] = [];
    page.on('request', (request) => {
      const url = request.url();
      if (!url.startsWith(`${origin}/`) && !/^(data|blob):/.test(url)) elsewhere.push(url);
    });
    page.on('requestfailed', (request) => failures.push(request.url()));
    page.on('pageerror', (error) => failures.push(error.message));

    const loaded = await page.goto(`${origin}/docs`);
    assert.equal(loaded?.status(), 200);
    await page.locator('.swagger-ui .info .title', { hasText: 'gamedata-api' }).waitFor();

    // Every operation is listed, e.g. the season list of the keyed "seasons" tag.
    const operation = page.locator('#operations-seasons-listSeasons');
    await operation.waitFor();
    assert.ok((await page.locator('.opblock').count()) >= 17, 'every operation is listed');
    for (const summary of ['A match', 'Players by name or account id', 'Service status']) {
      await page.locator('.opblock-summary-description', { hasText: summary }).first().waitFor();
    }

    // Authorize with the API key, as a reader would.
    await page.locator('.btn.authorize').first().click();
    await page.locator('.auth-container input').first().fill(t.apiKey);
    await page.locator('.auth-container .btn.authorize').first().click();
    await page.locator('.btn-done').first().click();

    // Try the seasons endpoint against this running instance.
    await operation.locator('.opblock-summary').first().click();
    await operation.locator('tr[data-param-name="shard"] input').fill('pc-b');
    const sent = page.waitForRequest((request) => request.url().endsWith('/shards/pc-b/seasons'));
    await operation.locator('.btn.execute').click();
    const request = await sent;
    assert.equal(request.headers().authorization, `Bearer ${t.apiKey}`);
    const status = operation.locator('.live-responses-table tbody .response-col_status').first();
    await status.waitFor();
    assert.equal((await status.innerText()).trim(), '200');
    await operation.locator('.live-responses-table', { hasText: 'isCurrentSeason' }).waitFor();

    assert.deepEqual(elsewhere, [], 'nothing is loaded from anywhere but this instance');
    assert.deepEqual(failures, []);
  } finally {
    await browser.close();
    await t.close();
  }
});

test('the docs page and its assets are served whatever Accept says, never as JSON:API', async () => {
  const t = await createTestApp(testDatabases[0]!);
  try {
    for (const [url, accept, type] of [
      ['/docs', 'text/html', 'text/html'],
      ['/docs/static/swagger-ui.css', 'text/css', 'text/css'],
      ['/docs/static/swagger-ui-bundle.js', 'application/javascript', 'application/javascript'],
      ['/docs/json', 'application/json', 'application/json'],
    ]) {
      const response = await t.app.inject({ url: url!, headers: { accept: accept! } });
      assert.equal(response.statusCode, 200, url);
      assert.match(String(response.headers['content-type']), new RegExp(`^${type}`), url);
    }
    const page = await t.app.inject({ url: '/docs' });
    assert.match(String(page.headers['content-security-policy']), /script-src 'self'/);
    assert.doesNotMatch(page.body, /https?:\/\//, 'the page loads nothing from elsewhere');
  } finally {
    await t.close();
  }
});
