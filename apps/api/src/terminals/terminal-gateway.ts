import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { Logger } from '@nestjs/common';
import { type RawData, WebSocketServer, type WebSocket } from 'ws';
import type { AntidoteConfig } from '@antidote/config';
import { authorizeTerminal, type LiveLessonLookup } from './terminal-access.js';
import { bridgeTerminal, type TerminalSocket } from './terminal-bridge.js';
import { originAllowed, parseTerminalRequest, TERMINALS_PATH } from './terminal-request.js';
import { canonicalTarget } from '../http/canonical-path.js';
import { PerKeySlots } from '../http/per-key-slots.js';
import type { RequestSite } from '../http/request-site.js';
import type { ShellChannel, ShellOpener } from './ssh-shell.js';
import { TerminalCloseCode, TerminalRefusal } from './terminal.errors.js';

type TerminalsConfig = AntidoteConfig['api']['terminals'];
const INITIAL_SIZE = { cols: 80, rows: 24 };

const refuseUpgrade = (socket: Duplex, status: string): void => {
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
};

/** A text frame's content (ws hands over a Buffer, or fragments). */
const textOf = (data: RawData): string =>
  (Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(new Uint8Array(data))).toString('utf8');

const asTerminalSocket = (ws: WebSocket): TerminalSocket => ({
  send: (data, sent) => ws.send(data, () => sent()),
  bufferedBytes: () => ws.bufferedAmount,
  close: (code, reason) => ws.close(code, reason.slice(0, 120)),
  onMessage: (listener) => void ws.on('message', (data, isBinary) => listener(isBinary ? '' : textOf(data))),
  onClose: (listener) => void ws.on('close', listener),
  pause: () => ws.pause(),
  resume: () => ws.resume(),
});

/**
 * `GET /terminals?liveLessonId&sessionId&endpoint` upgraded to a WebSocket: the Host one the api answers
 * to, the origin the api's own (as seen through its trusted proxies) or listed; the session must own the lab; at most `maxPerSession` at once. The api then logs in to
 * the endpoint over SSH itself — the browser never receives a password — and bridges the two.
 * A refusal after the origin check is a WebSocket close with a code and a reason the page can show.
 */
export class TerminalGateway {
  private readonly logger = new Logger('Terminals');
  private readonly wss: WebSocketServer;
  private readonly slots: PerKeySlots;
  private readonly open = new Set<WebSocket>();
  private site?: RequestSite;

  constructor(
    private readonly config: TerminalsConfig,
    private readonly lookup: LiveLessonLookup,
    private readonly openShell: ShellOpener,
  ) {
    // One message per turn of the event loop: a burst of frames in one TCP read never holds the loop.
    this.wss = new WebSocketServer({ noServer: true, maxPayload: config.maxFrameBytes, perMessageDeflate: false, allowSynchronousEvents: false });
    this.slots = new PerKeySlots(config.maxPerSession);
  }

  /** Serves upgrades of `server` whose Host `site` answers to and whose Origin is the api's own (or listed). */
  attach(server: Server, site: RequestSite): void {
    this.site = site;
    server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => void this.upgrade(request, socket, head));
  }

  get openCount(): number {
    return this.open.size;
  }

  /** Ends every terminal (shutdown). */
  closeAll(): void {
    for (const ws of this.open) {
      ws.close(TerminalCloseCode.shuttingDown, 'the api is stopping');
      // No waiting for the page's closing handshake: the http server would wait for this socket.
      setImmediate(() => ws.terminate());
    }
    this.wss.close();
  }

  private async upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    socket.on('error', () => socket.destroy());
    const url = canonicalTarget(request.url ?? '');
    if (url === undefined) return refuseUpgrade(socket, '400 Bad Request');
    if (new URL(url, 'http://terminal.invalid').pathname !== TERMINALS_PATH) return refuseUpgrade(socket, '404 Not Found');
    if (!this.site?.hostAllowed(request)) return refuseUpgrade(socket, '403 Forbidden');
    if (!originAllowed(request.headers.origin, this.site.ownOrigin(request), this.config.allowedOrigins)) return refuseUpgrade(socket, '403 Forbidden');
    if (request.headers.upgrade?.toLowerCase() !== 'websocket' || !request.headers['sec-websocket-key']) return refuseUpgrade(socket, '400 Bad Request');
    let sessionId: string | undefined;
    let shell: ShellChannel | undefined;
    let refusal: TerminalRefusal | undefined;
    try {
      const terminal = parseTerminalRequest(url);
      const target = await authorizeTerminal(this.lookup, terminal);
      if (!this.slots.take(terminal.sessionId))
        throw new TerminalRefusal(TerminalCloseCode.tooMany, `at most ${this.config.maxPerSession} terminals per session`);
      sessionId = terminal.sessionId;
      shell = await this.openShell(target, INITIAL_SIZE, this.config.connectTimeoutMs);
    } catch (error) {
      refusal = error instanceof TerminalRefusal ? error : new TerminalRefusal(TerminalCloseCode.unavailable, 'the terminal could not be opened');
      if (!(error instanceof TerminalRefusal)) this.logger.warn(`terminal failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    const release = (): void => {
      if (sessionId !== undefined) this.slots.release(sessionId);
      sessionId = undefined;
    };
    let upgraded = false;
    const abandon = (): void => {
      if (upgraded) return;
      shell?.close();
      release();
    };
    // The page may leave while the SSH login is under way, or the handshake may fail: nothing stays open.
    if (socket.destroyed) return abandon();
    socket.once('close', abandon);
    this.wss.handleUpgrade(request, socket, head, (ws) => {
      upgraded = true;
      // An oversized frame is an error here; ws then closes the socket with 1009 itself.
      ws.on('error', (error) => this.logger.debug(`terminal socket: ${error.message}`));
      if (refusal || !shell) {
        release();
        return ws.close(refusal?.code ?? TerminalCloseCode.unavailable, refusal?.message ?? 'no shell');
      }
      this.open.add(ws);
      const limits = {
        idleTimeoutMs: this.config.idleTimeoutSeconds * 1000,
        maxFrameBytes: this.config.maxFrameBytes,
        framesPerSecond: this.config.inputFramesPerSecond,
        bytesPerSecond: this.config.inputBytesPerSecond,
      };
      bridgeTerminal(asTerminalSocket(ws), shell, limits, () => {
        this.open.delete(ws);
        release();
      });
    });
  }
}
