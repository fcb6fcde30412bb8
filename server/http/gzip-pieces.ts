import { crc32, deflateRawSync, constants as zlib } from 'node:zlib';

/**
 * A gzip body made of pieces compressed once and pieces that change per response (RFC 1951/1952).
 * Each fixed piece is compressed on its own, at the highest level, into raw deflate blocks ended by a
 * sync flush: byte-aligned and not final, so blocks of several pieces follow each other as one stream
 * (a block never refers back past its own piece, which every inflater accepts). A changing piece goes
 * in as a stored block, copied as it is; an empty final block closes the stream. Per response that is a
 * copy and a CRC-32, not a compression: what a signed-in visitor's page costs (server/identity/personal-pages.ts).
 */
export class GzipPieces {
  private readonly compressed: Buffer[];
  private readonly raw: Buffer[];

  constructor(fixed: string[]) {
    this.raw = fixed.map((text) => Buffer.from(text));
    this.compressed = this.raw.map((buf) => (buf.length === 0 ? Buffer.alloc(0)
      : deflateRawSync(buf, { level: 9, finishFlush: zlib.Z_SYNC_FLUSH })));
  }

  /** The fixed pieces with `between[i]` after fixed piece i (one fewer than the fixed pieces), gzipped. */
  body(between: string[]): Buffer {
    const chunks: Buffer[] = [HEADER];
    let crc = 0;
    let size = 0;
    for (let i = 0; i < this.raw.length; i += 1) {
      const fixed = this.raw[i] as Buffer;
      chunks.push(this.compressed[i] as Buffer);
      crc = crc32(fixed, crc);
      size += fixed.length;
      const text = between[i];
      if (text === undefined || i === this.raw.length - 1) continue;
      const piece = Buffer.from(text);
      for (let at = 0; at < piece.length; at += MAX_STORED) chunks.push(storedBlock(piece.subarray(at, at + MAX_STORED)));
      crc = crc32(piece, crc);
      size += piece.length;
    }
    const trailer = Buffer.alloc(8);
    trailer.writeUInt32LE(crc >>> 0, 0);
    trailer.writeUInt32LE(size % 2 ** 32, 4);
    chunks.push(FINAL_BLOCK, trailer);
    return Buffer.concat(chunks);
  }
}

/** Magic, deflate, no flags, no time, no extra flags, unknown OS. */
const HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
/** BFINAL = 1 with fixed Huffman codes and only the end-of-block code: an empty last block. */
const FINAL_BLOCK = Buffer.from([0x03, 0x00]);
const MAX_STORED = 0xffff;

/** A stored (uncompressed) block, not final; the stream is byte-aligned after a sync flush. */
function storedBlock(data: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head[0] = 0;
  head.writeUInt16LE(data.length, 1);
  head.writeUInt16LE(~data.length & 0xffff, 3);
  return Buffer.concat([head, data]);
}
