import { chromium, type Browser } from 'playwright-core';

/**
 * The headless chromium the browser tests and the render benchmark drive: Debian's build (or CHROMIUM_PATH), without
 * the sandbox a container lacks, the GPU a server lacks, or network traffic of its own that would muddy what is measured.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
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
}
