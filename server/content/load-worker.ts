/**
 * A content-parsing worker thread: parses batches of files with loadFile and sends back the
 * entries (without their line finder, which is rebuilt on demand) and the problems.
 */
import { parentPort } from 'node:worker_threads';
import { loadFile, type ParsedFile, type ParseBatch } from './load.ts';

parentPort?.on('message', (batch: ParseBatch) => {
  const results: ParsedFile[] = batch.files.map(({ path, text }) => {
    const problems: ParsedFile['problems'] = [];
    const entry = loadFile(path, text, problems, batch.videoHosts, batch.embedHosts);
    if (!entry) return { problems };
    const { lineOf: _lineOf, positionOf: _positionOf, ...rest } = entry;
    return { entry: rest, problems };
  });
  parentPort?.postMessage({ id: batch.id, results });
});
