import { request } from 'node:http';
import { connect } from 'node:net';
import ssh2 from 'ssh2';

/** One command over a real SSH connection (by default any login: most simulators of these specs accept any). */
export const sshExec = (host: string, port: number, command: string, password = 'antidote') =>
  new Promise<{ output: string; code: number }>((resolve, reject) => {
    const client = new ssh2.Client();
    client
      .on('ready', () =>
        client.exec(command, (error, channel) => {
          if (error) return reject(error);
          let output = '';
          let code = -1;
          channel.on('data', (data: Buffer) => (output += data.toString()));
          channel.on('exit', (status: number) => (code = status));
          channel.on('close', () => (client.end(), resolve({ output, code })));
        }),
      )
      .on('error', reject)
      .connect({ host, port, username: 'antidote', password, readyTimeout: 60_000 });
  });

/** An HTTP GET of `/`: its status and body. */
export const httpGet = (host: string, port: number) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const outgoing = request({ host, port, path: '/', agent: false }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += String(chunk)));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });

/**
 * What a plain TCP connection gets: the first line the endpoint sends, or how the connection ended
 * without one (`ECONNREFUSED`, `ECONNRESET`, `closed`).
 */
export const banner = (host: string, port: number) =>
  new Promise<string>((resolve) => {
    const socket = connect(port, host);
    let data = '';
    socket.on('data', (chunk: Buffer) => {
      data += String(chunk);
      if (data.includes('\n')) {
        socket.destroy();
        resolve(data.split(/\r?\n/)[0]);
      }
    });
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    socket.on('close', () => resolve(data || 'closed'));
  });
