import { request } from 'node:http';

export interface SseEvent {
  event: string;
  data: { status?: string };
}

/** Reads an SSE stream until it ends; returns the event names and payloads (each also to `onEvent` as it comes). */
export function readEvents(url: string, onOpen: () => void, onEvent: (event: SseEvent) => void = () => undefined): Promise<SseEvent[]> {
  return new Promise((resolve, reject) => {
    const events: SseEvent[] = [];
    const outgoing = request(url, (response) => {
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

