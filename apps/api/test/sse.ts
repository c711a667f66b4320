import { request } from 'node:http';

export interface SseEvent {
  event: string;
  data: { status?: string };
}

/** Reads an SSE stream until it ends (or `signal` aborts it); returns the event names and payloads (each also to `onEvent` as it comes). */
export function readEvents(
  url: string,
  onOpen: () => void,
  onEvent: (event: SseEvent) => void = () => undefined,
  headers: Record<string, string> = {},
  signal?: AbortSignal,
): Promise<SseEvent[]> {
  return new Promise((resolve, reject) => {
    const events: SseEvent[] = [];
    const outgoing = request(url, { headers, signal }, (response) => {
      let buffer = '';
      onOpen();
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const name = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (name && data) {
            events.push({ event: name, data: JSON.parse(data) as { status?: string } });
            onEvent(events.at(-1)!);
          }
        }
      });
      response.on('end', () => resolve(events));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

export interface OpenStream {
  status: number;
  /** Resolves with the first event (the current state), once the api holds the stream open. */
  first: Promise<SseEvent | undefined>;
  close(): void;
}

/** Opens an event stream and keeps it open until `close()`; non-200 answers resolve with their status. */
export function openStream(url: string, headers: Record<string, string> = {}): Promise<OpenStream> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { headers }, (response) => {
      let buffer = '';
      let firstEvent: (event: SseEvent | undefined) => void = () => undefined;
      const first = new Promise<SseEvent | undefined>((done) => (firstEvent = done));
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        buffer += chunk;
        const block = buffer.split('\n\n')[0];
        const name = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (buffer.includes('\n\n') && name && data) firstEvent({ event: name, data: JSON.parse(data) as SseEvent['data'] });
      });
      response.on('end', () => firstEvent(undefined));
      resolve({ status: response.statusCode ?? 0, first, close: () => outgoing.destroy() });
    });
    outgoing.on('error', (error) => (outgoing.destroyed ? undefined : reject(error)));
    outgoing.end();
  });
}
