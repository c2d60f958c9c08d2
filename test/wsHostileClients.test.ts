import test from 'ava';
import { createConnection } from 'node:net';
import { WsServer } from '../sinks/wsServer.js';

const TOKEN = 'test-token-1234';

/** Sends a WebSocket upgrade request to `path` with `origin`, then resets the connection at once; resolves when the socket is gone. */
function upgradeAndReset(port: number, path: string, origin: string): Promise<void> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port }, () => {
      socket.write(
        `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nOrigin: ${origin}\r\n\r\n`,
      );
      socket.resetAndDestroy();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => resolve());
  });
}

test('a refused upgrade whose client resets the connection before the refusal is written does not crash the server', async (t) => {
  const server = await WsServer.listen({ port: 0, token: TOKEN });
  t.teardown(() => server.close());
  // Each kind of refusal: a foreign Origin (403), a bad ?subscribe (400), a path with no endpoint (403).
  for (let round = 0; round < 30; round++) {
    await Promise.all([
      upgradeAndReset(server.port, '/ws', 'http://evil.example'),
      upgradeAndReset(server.port, '/ws?subscribe=bogus', `http://127.0.0.1:${server.port}`),
      upgradeAndReset(server.port, '/elsewhere', `http://127.0.0.1:${server.port}`),
    ]);
  }
  const page = await fetch(server.url);
  t.is(page.status, 200, 'the server still answers');
});
