// Slow clients, in a thread of their own so their sockets cost the api's event loop nothing: each
// connection sends a request's headers but never its body ("body"), or never ends its headers
// ("headers"), from the loopback address of its group. Plain JavaScript: a worker runs untranspiled.
//
// workerData: { port, groups: [{ address, count, kind: 'body' | 'headers' }] }
// Posts { connected, answered, closed } once every socket is connected, and again on 'count'; 'stop' ends them.
import { connect } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';

const { port, groups } = workerData;
const sockets = [];
const counts = { connected: 0, answered: 0, closed: 0 };
const total = groups.reduce((sum, group) => sum + group.count, 0);
const report = () => parentPort.postMessage({ ...counts });

const opening = (kind) =>
  kind === 'body'
    ? `POST /exp/livesession HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`
    : `GET /exp/lesson HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Never-Ends: `;

for (const { address, count, kind } of groups) {
  for (let i = 0; i < count; i++) {
    const socket = connect({ host: '127.0.0.1', port, localAddress: address });
    let answered = false;
    socket.on('error', () => undefined);
    socket.once('connect', () => {
      socket.write(opening(kind));
      if (++counts.connected === total) report();
    });
    socket.on('data', () => {
      if (!answered) counts.answered++;
      answered = true;
    });
    socket.once('close', () => counts.closed++);
    sockets.push(socket);
  }
}

parentPort.on('message', (message) => {
  if (message === 'count') return report();
  for (const socket of sockets) socket.destroy();
  parentPort.postMessage({ ...counts, stopped: true });
});
