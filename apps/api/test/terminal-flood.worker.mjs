// A page that floods its terminal with input frames, in a thread of its own so sending them costs the
// api's event loop nothing. Plain JavaScript: a worker runs untranspiled.
//
// workerData: { url, origin, frames, data }
// Posts { sent } once every frame is handed to the socket; on 'count', { output, first }: the bytes of
// terminal output received so far, and of its first message (the prompt); on 'stop' it drops the connection (a closing handshake would wait behind the
// frames the api has not read yet) and posts { closed: true }.
import { parentPort, workerData } from 'node:worker_threads';
import WebSocket from 'ws';

const { url, origin, frames, data } = workerData;
const ws = new WebSocket(url, { headers: { origin } });
let output = 0;
let first;
ws.on('message', (message) => {
  first ??= message.length;
  output += message.length;
});
ws.on('error', (error) => parentPort.postMessage({ error: error.message }));
ws.once('open', () => {
  const frame = JSON.stringify({ type: 'input', data });
  for (let i = 0; i < frames; i++) ws.send(frame);
  parentPort.postMessage({ sent: frames });
});
parentPort.on('message', (message) => {
  if (message === 'count') return parentPort.postMessage({ output, first });
  ws.once('close', () => parentPort.postMessage({ closed: true }));
  ws.terminate();
});
