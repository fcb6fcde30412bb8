/**
 * A content-parsing worker thread: parses batches of files with loadFile and sends back the
 * entries (without their line finder, which is rebuilt on demand) and the problems.
 */
import { parentPort } from 'node:worker_threads';
import { loadFile, RESULT_CHUNK, type ParsedChunk, type ParsedFile, type ParseBatch } from './load.ts';

parentPort?.on('message', (batch: ParseBatch) => {
  let results: ParsedFile[] = [];
  let from = 0;
  for (const [i, { path, text }] of batch.files.entries()) {
    const problems: ParsedFile['problems'] = [];
    const entry = loadFile(path, text, problems, batch.videoHosts, batch.embedHosts);
    if (entry) {
      const { lineOf: _lineOf, positionOf: _positionOf, ...rest } = entry;
      results.push({ entry: rest, problems });
    } else results.push({ problems });
    // Sent a few files at a time: the main thread copies each message in at once, and a whole batch of
    // parsed bodies took it long enough to hold up the requests a server answers while it imports.
    const last = i === batch.files.length - 1;
    if (last || results.length === RESULT_CHUNK) {
      const message: ParsedChunk = { id: batch.id, from, results, last };
      parentPort?.postMessage(message);
      from += results.length;
      results = [];
    }
  }
});
