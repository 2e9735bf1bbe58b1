/**
 * The browser the viewer tests drive: this machine's Chromium (none: the tests skip), headless,
 * and a page that counts what the content security policy blocks, so a test can check that the
 * viewer never trips it.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

/** This machine's Chromium, if it has one. */
export const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find((p) => existsSync(p));

/** Launches Chromium and opens a page that records content security policy violations. */
export async function openViewerBrowser(viewport = { width: 1400, height: 820 }): Promise<{ browser: Browser; page: Page }> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const page = await browser.newPage({ viewport });
  // Whatever the content security policy blocks is counted: the viewer itself must never trip it.
  await page.addInitScript(() => {
    const w = window as unknown as { cspViolations: string[] };
    w.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => w.cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  return { browser, page };
}

/** What the content security policy blocked on the page so far. */
export function cspViolationsOf(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
}
