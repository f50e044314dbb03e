import type { FileHandle } from 'node:fs/promises';

/** Bytes read per step from the end of a file: large enough that a step costs one system call for ~10,000 lines. */
export const CHUNK_BYTES = 1024 * 1024;
/** A longer line is cut to this many bytes (its start, where the time and level are) rather than held whole. */
export const MAX_LINE_BYTES = 64 * 1024;

/** A run of whole lines read from a file, oldest first as in the file, with the byte offset where it starts. */
export interface LineBlock {
  text: string;
  offset: number;
}

/**
 * Reads a file backwards in chunks, yielding blocks of whole lines from the end towards the start, so the newest lines
 * come first and the reader stops as soon as its caller has enough. A line longer than MAX_LINE_BYTES is cut.
 */
export async function* reverseLineBlocks(handle: FileHandle, size: number): AsyncGenerator<LineBlock> {
  let position = size;
  // Bytes of the line that straddles the previous chunk boundary (its tail, read first).
  let carry: Buffer = Buffer.alloc(0);
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  while (position > 0) {
    const length = Math.min(CHUNK_BYTES, position);
    position -= length;
    const { bytesRead } = await handle.read(buffer, 0, length, position);
    const chunk = buffer.subarray(0, bytesRead);
    if (position === 0) {
      // The file's start: everything left is whole lines.
      const text = Buffer.concat([chunk, carry.subarray(0, MAX_LINE_BYTES)]).toString('utf8');
      if (text !== '') yield { text, offset: 0 };
      return;
    }
    const firstBreak = chunk.indexOf(0x0a);
    if (firstBreak === -1) {
      // No line starts inside this chunk: it all belongs to the line being carried, whose start is what counts.
      carry = carry.length + chunk.length > MAX_LINE_BYTES ? Buffer.from(chunk.subarray(0, MAX_LINE_BYTES)) : Buffer.concat([chunk, carry]);
      continue;
    }
    const whole = Buffer.concat([chunk.subarray(firstBreak + 1), carry.subarray(0, MAX_LINE_BYTES)]);
    carry = Buffer.from(chunk.subarray(0, firstBreak));
    if (whole.length > 0) yield { text: whole.toString('utf8'), offset: position + firstBreak + 1 };
  }
}
