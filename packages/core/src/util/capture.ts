/** Marker appended to a captured value that was cut at the size cap. */
export const TRUNCATION_MARKER = '…[truncated by obs: ';

/**
 * Reassembles streamed text (strings or UTF-8 bytes) up to `maxBytes`, so streamed outputs can be
 * recorded without holding unbounded memory. Bytes past the cap are counted, not kept.
 */
export class TextCapture {
  private parts: string[] = [];
  private kept = 0;
  private dropped = 0;
  private decoder?: TextDecoder;

  constructor(private readonly maxBytes: number) {}

  /** Adds a chunk; non-text chunks are described, not dumped. */
  push(chunk: unknown): void {
    if (chunk === undefined || chunk === null) return;
    // Past the cap nothing more is kept: count bytes without decoding them.
    if (this.kept >= this.maxBytes && (chunk instanceof Uint8Array || chunk instanceof ArrayBuffer)) {
      this.dropped += chunk.byteLength;
      return;
    }
    let text: string;
    if (typeof chunk === 'string') text = chunk;
    else if (chunk instanceof Uint8Array || chunk instanceof ArrayBuffer) {
      this.decoder ??= new TextDecoder();
      text = this.decoder.decode(chunk, { stream: true });
    } else text = typeof chunk === 'object' ? (JSON.stringify(chunk) ?? '') : String(chunk);
    this.append(text);
  }

  private append(text: string): void {
    if (this.kept >= this.maxBytes) {
      this.dropped += text.length;
      return;
    }
    const kept = Math.min(text.length, this.maxBytes - this.kept);
    this.parts.push(text.slice(0, kept));
    this.kept += kept;
    this.dropped += text.length - kept;
  }

  /** Whether anything was captured. */
  get empty(): boolean {
    return this.kept === 0 && this.dropped === 0;
  }

  /** The captured text, with a visible marker when the cap cut it. */
  text(): string {
    if (this.decoder) {
      const rest = this.decoder.decode();
      if (rest) this.append(rest);
      this.decoder = undefined;
    }
    const body = this.parts.join('');
    return this.dropped > 0 ? `${body}${TRUNCATION_MARKER}${this.dropped} more characters]` : body;
  }
}

/** Cuts a string to `maxChars` with the visible marker. */
export function truncateText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  return `${text.slice(0, maxChars)}${TRUNCATION_MARKER}${text.length - maxChars} more characters]`;
}
