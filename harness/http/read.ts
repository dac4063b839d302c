// Reading what a target answered: at most ANSWER_READ_LIMIT bytes, whoever the target is. A
// service that answers a gigabyte must not take the run to gigabytes of memory; the excerpt
// kept in evidence says that the rest was not read.

/** The most of one answer body the harness reads (service answers, receiver replies, hooks). */
export const ANSWER_READ_LIMIT = 64 * 1024;

export interface CappedBody {
  /** The bytes read, as UTF-8 (a character cut at the limit shows as U+FFFD). */
  text: string;
  /** True when the body went on past the limit: the rest was not read and the connection was dropped. */
  truncated: boolean;
}

/** Reads a body up to `limit` bytes, then stops reading and destroys the stream. */
export async function readCapped(body: AsyncIterable<Buffer> & { destroy(): unknown }, limit = ANSWER_READ_LIMIT): Promise<CappedBody> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    if (size + chunk.length > limit) {
      chunks.push(chunk.subarray(0, limit - size));
      size = limit;
      body.destroy();
      return { text: Buffer.concat(chunks, size).toString('utf8'), truncated: true };
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  return { text: Buffer.concat(chunks, size).toString('utf8'), truncated: false };
}

/** The note a truncated answer carries in its evidence excerpt. */
export function truncationNote(limit = ANSWER_READ_LIMIT): string {
  return `[answer longer than ${limit} bytes: the rest was not read]`;
}
