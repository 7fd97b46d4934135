import { afterEach, describe, expect, it, vi } from 'vitest';
import { classifyTerrain, terrainMasks } from './terrain-classify.ts';
import { rasterizeTerrain, terrainChunkArea, terrainChunksPerSide } from './terrain-raster.ts';
import { createTerrainRenderer } from './terrain-renderer.ts';
import { hashPixels, terrainTestWorld } from './terrain-test-world.ts';
import { createTerrainWorkerCore, type TerrainWorkerReply, type TerrainWorkerRequest } from './terrain-worker-core.ts';
import { FakeImageData, recordingSurfaces } from './test-doubles.ts';

/**
 * Every chunk of the test world as the main thread rasterised it before the terrain worker existed (FNV-1a of its
 * RGBA bytes, row-major chunk order). Both paths must keep producing exactly these pixels: a change to the terrain
 * art changes these on purpose, and then in one place.
 */
const CHUNK_HASHES_BEFORE_THE_WORKER = [
  '547d7515',
  '49a84499',
  'b4db56ed',
  'b6fa4be9',
  '634238d6',
  'c1420f85',
  '88185688',
  '5090a9eb',
  '9f982e09',
  '34de5c11',
  '0f433a19',
  '33ffa7b9',
  '148fcc88',
  '8a1ebd25',
  'e161cf7f',
  '11c1cfae',
  'a31ccfb9',
  'e5d8bee2',
  '83ce7299',
  '7290dfbc',
  '7b68f84a',
  'b8c7b034',
  '4ac3a087',
  '57d51870',
  '290a808c',
  '062c0a17',
  '91668ffa',
  'eec309ef',
  'f179807d',
  '31533aca',
  '6a043b11',
  '77a747f7',
  '17337f25',
  '6bbeb90f',
  '49698ba6',
  '8e0e8358',
  '975ba7fb',
  '077f98f0',
  'd3912823',
  '05ca7d55',
  'be72208d',
  'a115770a',
  'effa0291',
  '23261a49',
  'f1d708dc',
  '66215627',
  'e944359c',
  'ec6f690c',
  '8e7926e4',
  '5a0b5cc0',
  '1b4ebaf3',
  'f518ba5f',
  '7a6c8942',
  '0dd07dd7',
  'bdd55ede',
  'b9216daf',
  '50e3300f',
  '7c1c13db',
  '8fc6abc0',
  'e409c8fd',
  '844d9193',
  'a2a399ca',
  'bd9be9e4',
  '2c81213d',
  'a6587787',
  'f4c124ce',
  '8715243d',
  'f242198c',
  '6268f7ca',
  '802055dd',
  '87db5ad5',
  'a8a4e01d',
  '55da4c00',
  '10caf273',
  'ac1ee6d4',
  '06431156',
  '90b4f753',
  'abe9c136',
  '734cccd5',
  '9785ca6f',
  '6cf85075',
  '9e43cf6d',
  '54eb8435',
  '503c162b',
  'df8d3056',
  'eb5f7afd',
  '4dd28f2a',
  '92c26c75',
  '24ef5044',
  '56577315',
  '5f7db462',
  '6ad18447',
  '6834b50c',
  '8390f2b1',
  'ecdd5801',
  '85af2e97',
  'e1d242ed',
  '13710c26',
  '9e0ea2ab',
  'd18fa73a',
];

const world = terrainTestWorld();
const chunkCount = terrainChunksPerSide(world.size) ** 2;

/** The worker's logic driven in-process: replies collected, its yields run when the test says. */
function inProcessWorker() {
  const replies: TerrainWorkerReply[] = [];
  const pending: Array<() => void> = [];
  let clock = 0;
  const core = createTerrainWorkerCore({
    post: (reply) => replies.push(reply),
    toBitmap: null,
    yieldThen: (next) => pending.push(next),
    // Every reading 5 ms later: the worker yields after every second chunk, so 'want' messages get their turn.
    now: () => (clock += 5),
  });
  const runOneSlice = () => pending.shift()?.();
  const drain = () => {
    while (pending.length) runOneSlice();
  };
  return { core, replies, runOneSlice, drain };
}

const chunkPixels = (replies: TerrainWorkerReply[]) =>
  new Map(replies.flatMap((reply) => (reply.type === 'chunk' && reply.pixels ? [[reply.slot, reply.pixels] as const] : [])));

describe('terrain worker', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('rasterises every chunk to the same bytes as the main-thread path did before the worker', () => {
    const grid = classifyTerrain(world.tiles, world.size, world.labelPoints);
    const mainThread = Array.from({ length: chunkCount }, (_, slot) =>
      hashPixels(rasterizeTerrain(grid, terrainChunkArea(world.size, slot))),
    );
    expect(mainThread).toEqual(CHUNK_HASHES_BEFORE_THE_WORKER);

    const worker = inProcessWorker();
    worker.core.receive({ type: 'layout', masks: terrainMasks(world.tiles, world.size), labelPoints: world.labelPoints });
    worker.drain();
    const pixels = chunkPixels(worker.replies);
    expect(pixels.size).toBe(chunkCount);
    const fromWorker = Array.from({ length: chunkCount }, (_, slot) => hashPixels(pixels.get(slot)!));
    expect(fromWorker).toEqual(CHUNK_HASHES_BEFORE_THE_WORKER);
  });

  it('sends the classification first, the same grid the main thread computes', () => {
    const worker = inProcessWorker();
    worker.core.receive({ type: 'layout', masks: terrainMasks(world.tiles, world.size), labelPoints: world.labelPoints });
    const [first] = worker.replies;
    expect(first?.type).toBe('grid');
    const grid = classifyTerrain(world.tiles, world.size, world.labelPoints);
    expect(first).toEqual({ type: 'grid', grid });
  });

  it('rasterises the chunks a view wants next', () => {
    const worker = inProcessWorker();
    worker.core.receive({ type: 'layout', masks: terrainMasks(world.tiles, world.size), labelPoints: world.labelPoints });
    worker.runOneSlice();
    worker.core.receive({ type: 'want', slots: [77, 55] });
    worker.runOneSlice();
    const slots = worker.replies.flatMap((reply) => (reply.type === 'chunk' ? [reply.slot] : []));
    expect(slots).toEqual([0, 1, 77, 55]);
  });

  it('feeds the renderer the same pixels with the worker as without it, and the first paint waits for them', () => {
    vi.stubGlobal('ImageData', FakeImageData);
    const masks = terrainMasks(world.tiles, world.size);
    const uploaded = (surfaces: ReturnType<typeof recordingSurfaces>) =>
      surfaces.created.map((surface) => {
        const put = surface.context.calls.find((call) => call.name === 'putImageData');
        return put ? hashPixels((put.args[0] as FakeImageData).data) : null;
      });

    const withoutWorker = recordingSurfaces();
    const local = createTerrainRenderer({ masks, labelPoints: world.labelPoints, worker: null }, withoutWorker.factory);
    while (local.prerenderNext() === 'built');
    expect(uploaded(withoutWorker)).toEqual(CHUNK_HASHES_BEFORE_THE_WORKER);

    const inProcess = inProcessWorker();
    const fakeWorker = {
      postMessage: (request: TerrainWorkerRequest) => inProcess.core.receive(structuredClone(request)),
      terminate: vi.fn(),
    } as unknown as Worker;
    const arrived = vi.fn();
    const withWorker = recordingSurfaces();
    const remote = createTerrainRenderer(
      { masks, labelPoints: world.labelPoints, worker: fakeWorker, onChunkArrived: arrived },
      withWorker.factory,
    );
    const view = { camera: { centerX: 720, centerY: 720, zoom: 1 }, viewport: { width: 300, height: 300 } };
    expect(remote.prerenderNextIn(view.camera, view.viewport)).toBe('waiting');
    // The replies reach the renderer as the worker's messages would.
    const deliver = () => {
      for (const reply of inProcess.replies.splice(0)) fakeWorker.onmessage?.({ data: reply } as MessageEvent);
    };
    inProcess.drain();
    deliver();
    expect(arrived).toHaveBeenCalled();
    expect(remote.prerenderNextIn(view.camera, view.viewport)).toBe('done');
    expect(remote.prerenderNext()).toBe('done');
    // The view's chunks came first, then the rest: the same chunks, whatever the order.
    const sorted = (hashes: ReadonlyArray<string | null>) => [...hashes].sort();
    expect(sorted(uploaded(withWorker))).toEqual(sorted(CHUNK_HASHES_BEFORE_THE_WORKER));
    expect(withWorker.created).toHaveLength(chunkCount);
    remote.dispose();
    expect(fakeWorker.terminate).toHaveBeenCalled();
  });
});
